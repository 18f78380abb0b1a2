import type { Entity } from '#shared/entities';
import { toIsoOutput } from '#shared/schemas/common';
import { collectionLure, lureTypeIds } from '#shared/schemas/lure';

/**
 * Whether a stored record is what a create body asked for, judged field by field as an upstream
 * stores and lists it: 'same' when every sent field is provably equal, 'different' when one
 * provably differs, 'unknown' when a sent field cannot be checked (the list leaves it out, or
 * shows it in a shape we cannot compare). Reconciliation accepts a record only on 'same' and
 * treats 'unknown' as "cannot tell", never as "absent" or "ours".
 */
export type StoredMatch = 'same' | 'different' | 'unknown';

type Row = Record<string, unknown>;

/** Fields whose stored value is a multiset of child rows rather than the value sent. */
const CHILD_SETS: Record<string, (item: unknown) => string | null> = {
  arthropods: (item) => {
    if (!item || typeof item !== 'object') return null;
    const r = item as Row;
    const species = idOf(r.species);
    const sex = idOf(r.sex);
    return species === null || sex === null || typeof r.num_count !== 'number'
      ? null
      : `${species}/${sex}/${r.num_count}`;
  },
  // Lures are sent as lure type ids; lists give the ids, the link records ({lure}) or the lure
  // types themselves ({id, code}): read by the shared rule for those shapes.
  lures: (item) => {
    const parsed = collectionLure.safeParse(item);
    return parsed.success ? String(lureTypeIds([parsed.data])[0]) : null;
  },
};

function idOf(v: unknown): number | null {
  if (typeof v === 'number') return v;
  if (v && typeof v === 'object' && typeof (v as Row).id === 'number')
    return (v as Row).id as number;
  return null;
}

const DATE_TEXT = /^\d{4}-\d{2}-\d{2}(T|$)/;

/** The instant a date text names (a date alone is UTC midnight, as stored); NaN when invalid. */
function instant(text: string): number {
  try {
    return Date.parse(toIsoOutput(text));
  } catch {
    return NaN;
  }
}

function all(results: StoredMatch[]): StoredMatch {
  if (results.includes('different')) return 'different';
  return results.includes('unknown') ? 'unknown' : 'same';
}

function sameMultiset(sent: unknown[], stored: unknown, key: (item: unknown) => string | null) {
  if (!Array.isArray(stored)) return 'unknown';
  const a = sent.map(key);
  const b = stored.map(key);
  if (a.includes(null) || b.includes(null)) return 'unknown';
  return JSON.stringify([...a].sort()) === JSON.stringify([...b].sort()) ? 'same' : 'different';
}

function compareValue(sent: unknown, stored: unknown): StoredMatch {
  if (sent === undefined) return 'same';
  if (sent === null) {
    if (stored === null || stored === undefined || stored === '') return 'same';
    return Array.isArray(stored) && stored.length === 0 ? 'same' : 'different';
  }
  if (stored === undefined) return 'unknown';
  if (typeof sent === 'number') {
    if (typeof stored === 'number') return stored === sent ? 'same' : 'different';
    // A numeric string (elevation) or a populated reference ({id, ...}).
    if (typeof stored === 'string' && stored.trim() !== '' && !Number.isNaN(Number(stored)))
      return Number(stored) === sent ? 'same' : 'different';
    const id = idOf(stored);
    if (id !== null) return id === sent ? 'same' : 'different';
    return stored === null ? 'different' : 'unknown';
  }
  if (typeof sent === 'boolean') {
    if (typeof stored === 'boolean') return stored === sent ? 'same' : 'different';
    return stored === null ? 'different' : 'unknown';
  }
  if (typeof sent === 'string') {
    if (typeof stored !== 'string') return stored === null ? 'different' : 'unknown';
    if (DATE_TEXT.test(sent) && DATE_TEXT.test(stored)) {
      const a = instant(sent);
      const b = instant(stored);
      if (Number.isNaN(a) || Number.isNaN(b)) return 'unknown';
      return a === b ? 'same' : 'different';
    }
    return stored === sent ? 'same' : 'different';
  }
  if (Array.isArray(sent)) {
    if (!Array.isArray(stored)) return stored === null ? 'different' : 'unknown';
    if (stored.length !== sent.length) return 'different';
    return all(sent.map((v, i) => compareValue(v, stored[i])));
  }
  if (typeof sent === 'object') {
    if (!stored || typeof stored !== 'object' || Array.isArray(stored))
      return stored === null ? 'different' : 'unknown';
    return compareFields(sent as Row, stored as Row);
  }
  return 'unknown';
}

function compareFields(sent: Row, stored: Row): StoredMatch {
  return all(
    Object.entries(sent).map(([field, value]) => {
      const childKey = Object.hasOwn(CHILD_SETS, field) ? CHILD_SETS[field] : undefined;
      if (childKey && Array.isArray(value)) return sameMultiset(value, stored[field], childKey);
      return compareValue(value, stored[field]);
    }),
  );
}

/**
 * Compares every field a create body sent with a listed record (extra stored fields are ignored).
 * Reconciliation uses `storedAsCreated`, which also checks the fields the body left out.
 */
export function storedMatch(body: Row, stored: Row): StoredMatch {
  return compareFields(body, stored);
}

/** The empty value a service stores for an optional field a create leaves out. */
type EmptyDefault = 'null' | 'false' | 'none';

/**
 * Optional create fields whose stored value is empty when a create leaves them out (contract §6
 * and the records service's creates): text and references null, flags false, child sets none.
 * Fields the service fills in itself are not here, since their stored value says nothing about
 * what was sent: agency and user (the token), site region (the agency's), collection number,
 * survey year, date-only flag and location (the date, the site), pool number, primary source,
 * site, date, trap and location (the collection).
 */
const EMPTY_DEFAULTS: { readonly [E in Entity]: Readonly<Record<string, EmptyDefault>> } = {
  site: {
    active_date: 'null',
    deactive_date: 'null',
    address_1: 'null',
    address_2: 'null',
    city: 'null',
    comments: 'null',
    elevation: 'null',
    postal_code: 'null',
    revision_comments: 'null',
    site_population: 'null',
    site_land_usage: 'none',
    site_land_usage_custom: 'none',
  },
  collection: {
    site: 'null',
    comments: 'null',
    identified_by: 'null',
    trap_problem_bit: 'false',
    arthropods: 'none',
    lures: 'none',
  },
  pool: { comments: 'null' },
  poolTest: { value: 'null', comments: 'null' },
};

/**
 * Whether a stored field holds the empty default of a field the create left out. Absent counts as
 * empty, as for a field sent as null (compareValue): an upstream that stores records as sent lists
 * no key for what was never sent. Any value is 'different': the record holds something this
 * create never sent, so it is a sibling's (the catch of another trap, its comments).
 */
function emptyMatch(kind: EmptyDefault, stored: unknown): StoredMatch {
  if (stored === undefined || stored === null) return 'same';
  switch (kind) {
    case 'false':
      if (typeof stored !== 'boolean') return 'unknown';
      return stored ? 'different' : 'same';
    case 'none':
      if (!Array.isArray(stored)) return 'unknown';
      return stored.length === 0 ? 'same' : 'different';
    case 'null':
      return stored === '' ? 'same' : 'different';
  }
}

/**
 * Whether a listed record is the whole body of a create of `entity` as stored: every sent field
 * equal (storedMatch), and every optional field the body left out still empty. A look-alike
 * sibling that holds more (a catch, comments, lures, a trap problem) is 'different'.
 */
export function storedAsCreated(entity: Entity, body: Row, stored: Row): StoredMatch {
  const omitted = Object.entries(EMPTY_DEFAULTS[entity]).filter(
    ([field]) => body[field] === undefined,
  );
  return all([
    compareFields(body, stored),
    ...omitted.map(([field, kind]) => emptyMatch(kind, stored[field])),
  ]);
}
