import type { Queryable } from '../../../src/server/db/database';
import { growSites } from '../../bench/grow-sites';

/** Grows `count` sites for agency 1 (grow-sites.ts) and returns how many it holds in all. */
export async function growAndCount(db: Queryable, count: number): Promise<number> {
  await growSites(db, count);
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from site where agency = 1 and delete_date is null`,
  );
  return rows[0].n;
}
