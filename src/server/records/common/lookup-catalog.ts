import type { Queryable } from '../../db/database';
import { VERSIONED_LOOKUP_TABLES } from '../../db/migrations/009-lookup-version';

/** Lookup kinds the catalog holds: those with an `active` flag (their kind is their table). */
export type CatalogKind = (typeof VERSIONED_LOOKUP_TABLES)[number];

/**
 * The lookup version, as a column of a statement of the caller's (one read of a one-row table).
 * Text: a bigint has no exact JavaScript number.
 */
export const LOOKUP_VERSION_SQL = '(select version::text from lookup_version)';

const KINDS: ReadonlySet<string> = new Set(VERSIONED_LOOKUP_TABLES);

/** Kinds whose entries are held with their name (the F-Mixed rule reads the sexes' names). */
const NAMED: ReadonlySet<CatalogKind> = new Set(['sex']);

/**
 * The whole catalog and its version, from one snapshot. Kind and table names are constants of
 * this module, never from a request.
 */
const CATALOG_SQL = `select ${LOOKUP_VERSION_SQL} as version,
  (select json_agg(e) from (${VERSIONED_LOOKUP_TABLES.map(
    (kind) =>
      `select '${kind}' as kind, id, ${NAMED.has(kind) ? 'name' : 'null::text'} as name
         from ${kind} where active`,
  ).join(' union all ')}) e) as entries`;

/** An active lookup entry: its kind and id, and its name for the kinds held with one. */
export type FoundLookup = { kind: string; id: number; name: string | null };

type Held = { version: string; names: Map<string, string | null> };

export type LookupCatalog = {
  /**
   * Which of `idsByKind` are known and active, as a lookup read would find them (FoundLookup,
   * with the name for sexes), given the `version` the caller's statement read with
   * LOOKUP_VERSION_SQL. Reads the catalog again, on `q`, when it was read at another version.
   */
  foundAmong(
    q: Queryable,
    version: string,
    idsByKind: ReadonlyMap<CatalogKind, readonly number[]>,
  ): Promise<FoundLookup[]>;
};

/**
 * The active entries of every versioned lookup table, held in memory per records service.
 *
 * Why: checking a create's lookups against the tables cost a read of four or five small tables
 * per create (each a scan of the whole table on PGlite, whose every scan asks the file system for
 * the table's size): ~0.1 ms of a ~1.1 ms create (issue 13). Lookups change a few times a year.
 *
 * Invariant (exactness): entries are used only for the version they were read at, and version
 * and entries are read by one statement, so from one snapshot. Every change to a lookup table
 * moves the version in its own transaction (migration 9), so a create whose statement read
 * version V and finds V held sees exactly the entries that statement would have read: nothing
 * stale, also across processes sharing one PostgreSQL. Another version read (a change committed
 * since) reloads first; the reload's snapshot is then newer than the caller's, which a later
 * statement of the caller would have seen too (read committed).
 */
export function lookupCatalog(): LookupCatalog {
  let held: Held | null = null;

  async function load(q: Queryable): Promise<Held> {
    const { rows } = await q.query<{ version: string; entries: FoundLookup[] | null }>(CATALOG_SQL);
    const names = new Map<string, string | null>();
    for (const e of rows[0].entries ?? []) names.set(`${e.kind}:${e.id}`, e.name);
    return { version: rows[0].version, names };
  }

  return {
    async foundAmong(q, version, idsByKind) {
      if (held?.version !== version) held = await load(q);
      const { names } = held;
      const found: FoundLookup[] = [];
      for (const [kind, ids] of idsByKind) {
        // A kind without an active flag (agency, region, user) is not held: a caller's mistake.
        if (!KINDS.has(kind)) throw new Error(`The lookup catalog holds no ${kind} entries`);
        for (const id of new Set(ids)) {
          const key = `${kind}:${id}`;
          if (names.has(key)) found.push({ kind, id, name: names.get(key) ?? null });
        }
      }
      return found;
    },
  };
}
