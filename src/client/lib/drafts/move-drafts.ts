import type { EntityTable } from 'dexie';
import { DRAFT_KEY_PREFIX, draftKeyMoved } from './draft-keys';

type MetaRow = { key: string; value: unknown };

/**
 * Drafts of what the technician typed on a record known as `from` (its edit form, a new child's
 * form under it) are typing on the record `to`: called when a pulled copy is folded into the kept
 * row (sync/fold-duplicate.ts), as its children and entries are, else the copy's localId in their
 * keys would never open again and the typing would be lost. Where `to` has a draft of its own
 * under the same key, the newer one is kept. Runs inside the caller's transaction over `meta`.
 */
export async function moveDrafts(
  meta: EntityTable<MetaRow, 'key'>,
  from: string,
  to: string,
): Promise<void> {
  const drafts = await meta
    .where('key')
    .startsWith(DRAFT_KEY_PREFIX)
    .filter((row) => draftKeyMoved(row.key, from, to) !== null)
    .toArray();
  const savedAt = (value: unknown) => (value as { savedAt?: unknown } | null)?.savedAt;
  for (const draft of drafts) {
    const key = draftKeyMoved(draft.key, from, to);
    if (key === null) continue;
    const there = await meta.get(key);
    const newer = Number(savedAt(draft.value) ?? 0) >= Number(savedAt(there?.value) ?? 0);
    if (!there || newer) await meta.put({ key, value: draft.value });
    await meta.delete(draft.key);
  }
}
