import type { Queryable } from '../../db/database';
import { bindColumns, SITE_COLUMN_CASTS, SITE_COLUMN_NAMES, type SiteColumn } from './site-columns';
import { SITE_COLUMNS, type SiteRow } from './site-row';

/** A site of the agency (deleted ones too), or null: another agency's site is never found. */
export async function findSite(
  db: Queryable,
  agencyId: number,
  id: number,
): Promise<SiteRow | null> {
  const { rows } = await db.query<SiteRow>(
    `select ${SITE_COLUMNS} from site s where s.id = $1 and s.agency = $2`,
    [id, agencyId],
  );
  return rows[0] ?? null;
}

/**
 * findSite for a write: the row is locked until the transaction ends, so what the write checks
 * (deleted or not, its code and period, the Zero Site) is what it then changes. Another edit or a
 * delete of the site waits; on READ COMMITTED a plain read let an edit that waited for the code
 * lock write over a site deleted or recoded meanwhile. `no key update`: collections and pools
 * naming the site (a foreign-key share lock) are not held up.
 */
export async function lockSite(
  tx: Queryable,
  agencyId: number,
  id: number,
): Promise<SiteRow | null> {
  const { rows } = await tx.query<SiteRow>(
    `select ${SITE_COLUMNS} from site s where s.id = $1 and s.agency = $2 for no key update`,
    [id, agencyId],
  );
  return rows[0] ?? null;
}

/**
 * Serialises every create/update of one (agency, code) until the transaction ends, so the
 * in-use check and the write that follows cannot interleave with another request's (contract
 * §6: the rule holds under concurrent creates). Works on PGlite and PostgreSQL alike.
 */
export async function lockSiteCode(tx: Queryable, agencyId: number, code: string): Promise<void> {
  await lockSiteCodes(tx, agencyId, [code]);
}

/**
 * lockSiteCode for many codes in one statement (the batch route). Taken in sorted order, so two
 * batches naming the same codes wait for each other instead of deadlocking.
 */
export async function lockSiteCodes(
  tx: Queryable,
  agencyId: number,
  codes: readonly string[],
): Promise<void> {
  if (codes.length === 0) return;
  const sorted = [...new Set(codes)].sort();
  await tx.query(
    // unnest keeps the array's (sorted) order; the volatile lock call is never optimised away.
    `select count(*) from (
       select pg_advisory_xact_lock(hashtextextended('trapline:site-code:' || $1::text || ':' || c, 0))
         from unnest($2::text[]) as u(c)) locks`,
    [agencyId, sorted],
  );
}

/**
 * The site that keeps `code` in use for a new period starting at `activeFrom` (contract §6): a
 * live site of the agency with that code and no deactive_date, or one on/after `activeFrom`.
 *
 * An edit of a site that already holds the code (`activeUntil` given: its deactive_date, null
 * when open) is held to the same rule against each other site, whichever of the two starts
 * later taking the place of the new one: a later revision must start after this site's period
 * ends, an earlier one must have ended before this site starts. An old revision can then be
 * edited (or sent back as GET returned it) while a later one uses its code, and still not be
 * reopened into that later one's period.
 */
export async function siteUsingCode(
  tx: Queryable,
  agencyId: number,
  code: string,
  activeFrom: string,
  exceptId: number | null,
  activeUntil?: string | null,
): Promise<{ id: number; name: string } | null> {
  const earlierInUse = inUseFrom('$3::timestamptz');
  const inUse =
    activeUntil === undefined
      ? earlierInUse
      : `(case when coalesce(active_date, add_date) >= $3::timestamptz
               then ($5::timestamptz is null or $5::timestamptz >= coalesce(active_date, add_date))
               else ${earlierInUse} end)`;
  const { rows } = await tx.query<{ id: number; name: string }>(
    `select id, name from site
      where agency = $1 and code = $2 and delete_date is null
        and ${inUse}
        and ($4::int is null or id <> $4::int)
      order by id limit 1`,
    activeUntil === undefined
      ? [agencyId, code, activeFrom, exceptId]
      : [agencyId, code, activeFrom, exceptId, activeUntil],
  );
  return rows[0] ?? null;
}

/** A live site with this code keeps it in use for a new period starting at `from` (§6). */
const inUseFrom = (from: string) => `(deactive_date is null or deactive_date >= ${from})`;

/**
 * siteUsingCode for many new sites at once (the batch route's creates, under lockSiteCodes):
 * for each {code, activeFrom}, the first site keeping that code in use, by the code.
 */
export async function sitesUsingCodes(
  tx: Queryable,
  agencyId: number,
  wanted: readonly { code: string; activeFrom: string }[],
): Promise<Map<string, { id: number; name: string }>> {
  const out = new Map<string, { id: number; name: string }>();
  if (wanted.length === 0) return out;
  const { rows } = await tx.query<{ code: string; id: number; name: string }>(
    `select distinct on (w.code) w.code, s.id, s.name
       from unnest($2::text[], $3::timestamptz[]) as w(code, active_from)
       join site s on s.agency = $1 and s.code = w.code and s.delete_date is null
        and ${inUseFrom('w.active_from')}
      order by w.code, s.id`,
    [agencyId, wanted.map((w) => w.code), wanted.map((w) => w.activeFrom)],
  );
  for (const r of rows) out.set(r.code, { id: r.id, name: r.name });
  return out;
}

/**
 * Inserts many sites in one statement; answers their ids in the order given. `columns` of each
 * are as siteColumns gives them (absent = null: a site column has no default of its own).
 */
export async function insertSites(
  tx: Queryable,
  agencyId: number,
  userId: number | null,
  columns: readonly Partial<Record<SiteColumn, unknown>>[],
  now: Date,
): Promise<number[]> {
  if (columns.length === 0) return [];
  const names = SITE_COLUMN_NAMES;
  const { rows } = await tx.query<{ id: number; n: number }>(
    `with input as (
       select * from jsonb_to_recordset($4::jsonb)
         as r(${names.map((n) => `${n} ${SITE_COLUMN_CASTS[n]}`).join(', ')}, n int)
     ), inserted as (
       insert into site (agency, user_id, add_date, updated, ${names.join(', ')})
       select $1, $2, $3, $3, ${names.map((n) => `input.${n}`).join(', ')}
         from input order by input.n
       returning id, code
     )
     select inserted.id, input.n from inserted join input using (code) order by input.n`,
    [
      agencyId,
      userId,
      now.toISOString(),
      JSON.stringify(columns.map((c, n) => ({ ...c, n: n + 1 }))),
    ],
  );
  if (rows.length !== columns.length) throw new Error('insertSites: codes must differ');
  return rows.map((r) => Number(r.id));
}

export async function insertSite(
  tx: Queryable,
  agencyId: number,
  userId: number | null,
  columns: Partial<Record<SiteColumn, unknown>>,
  now: Date,
): Promise<SiteRow> {
  const b = bindColumns(columns, 5);
  const { rows } = await tx.query<{ id: number }>(
    `insert into site (agency, user_id, add_date, updated, ${b.names.join(', ')})
     values ($1, $2, $3, $4, ${b.placeholders.join(', ')}) returning id`,
    [agencyId, userId, now.toISOString(), now.toISOString(), ...b.values],
  );
  return (await findSite(tx, agencyId, rows[0].id)) as SiteRow;
}

export async function updateSite(
  tx: Queryable,
  agencyId: number,
  id: number,
  columns: Partial<Record<SiteColumn, unknown>>,
  now: Date,
): Promise<SiteRow> {
  const b = bindColumns(columns, 4);
  const sets = ['updated = $3', ...b.names.map((n, i) => `${n} = ${b.placeholders[i]}`)];
  await tx.query(`update site set ${sets.join(', ')} where id = $1 and agency = $2`, [
    id,
    agencyId,
    now.toISOString(),
    ...b.values,
  ]);
  return (await findSite(tx, agencyId, id)) as SiteRow;
}

export async function markSiteDeleted(
  tx: Queryable,
  agencyId: number,
  id: number,
  now: Date,
): Promise<SiteRow> {
  await tx.query('update site set delete_date = $3, updated = $3 where id = $1 and agency = $2', [
    id,
    agencyId,
    now.toISOString(),
  ]);
  return (await findSite(tx, agencyId, id)) as SiteRow;
}
