import type { Queryable } from '../../db/database';

/** What an attempt of lockWhereItStands answers when a row moved before its lock was granted. */
export const MOVED = Symbol('moved');

/**
 * Locks rows in the order every writer takes them (collection, pool, then a test) when which rows
 * to lock depends on a row that another writer may change meanwhile (READ COMMITTED): `attempt`
 * reads where things stand without a lock, takes the locks in order, reads again under them, and
 * answers MOVED when what it read first changed before its lock was granted. The locks of such an
 * attempt are given back (a savepoint), none held out of order, and it looks again. An attempt is
 * repeated only after another writer committed a move, so the loop cannot spin; on PGlite (one
 * transaction at a time) it runs once. `name`: the savepoint's, distinct for nested uses.
 */
export async function lockWhereItStands<T>(
  tx: Queryable,
  name: string,
  attempt: () => Promise<T | typeof MOVED>,
): Promise<T> {
  for (;;) {
    await tx.exec(`savepoint ${name}`);
    const result = await attempt();
    if (result !== MOVED) return result;
    await tx.exec(`rollback to savepoint ${name}`);
  }
}
