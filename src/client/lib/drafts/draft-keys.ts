/**
 * The draft key format, owned here alone: the form kit writes and reads drafts by it, and the sync
 * engine moves them by it when a record's localId changes (a pulled copy folded into the kept row).
 */

/** Which form of which record a draft belongs to (DraftPlace's key fields). */
export type DraftOwner = {
  /** The form's name: `site`, `collection`, `pools`, `pool`, `pool-test`. */
  form: string;
  /** The edited record's localId; null for a new record. */
  record: string | null;
  /** The parent's localId (the site of a new collection...), or null. */
  parent: string | null;
};

/** Every draft key starts so (drafts share the `meta` table with other keys). */
export const DRAFT_KEY_PREFIX = 'draft:';

/**
 * `draft:<form>:new:<parent>` for a new record, `draft:<form>:<record>:-` for an edit: an edit's
 * draft is its record's wherever the record is, as its parent's localId may change while the
 * draft waits (a pull moving a pool to the twin trap's collection, a fold of its collection).
 */
export function draftKey(owner: DraftOwner): string {
  return `${draftPrefix(owner.form, owner.record)}${owner.record === null ? (owner.parent ?? '-') : '-'}`;
}

/** The keys of one form's drafts of one record (any parent); of its new records for null. */
export const draftPrefix = (form: string, record: string | null) =>
  `${DRAFT_KEY_PREFIX}${form}:${record ?? 'new'}:`;

/**
 * The key a draft has once the record `from` is known as `to` (its record or its parent), or null
 * when the draft names neither.
 */
export function draftKeyMoved(key: string, from: string, to: string): string | null {
  const parts = key.split(':');
  if (!parts.includes(from)) return null;
  return parts.map((part) => (part === from ? to : part)).join(':');
}
