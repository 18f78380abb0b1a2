import pg from 'pg';
import { expect } from 'vitest';
import type { TestRecords } from '../../helpers/records-app';

/**
 * Races on PostgreSQL made to happen every time (READ COMMITTED, several connections): a second
 * connection, the blocker, holds a lock the first request needs after its checks, so the first
 * request has read and checked what it checks, and waits uncommitted while the second runs.
 */
export type LockRace = {
  /**
   * Runs `first` until it waits on the blocker's lock (`blockSql`), then `second`; releases the
   * lock once `second` has answered or waits too, and returns both answers.
   */
  race<A, B>(blockSql: string, first: () => Promise<A>, second: () => Promise<B>): Promise<[A, B]>;
  /** Whether, within `ms`, at least `n` statements of this database wait for a lock. */
  waiting(n: number, ms?: number): Promise<boolean>;
  blocker: pg.Client;
  close(): Promise<void>;
};

/** A blocker connection to the database of `t` (on the PostgreSQL server at `adminUrl`). */
export async function lockRace(t: TestRecords, adminUrl: string): Promise<LockRace> {
  const { rows } = await t.db.query<{ name: string }>('select current_database() as name');
  const url = new URL(adminUrl);
  url.pathname = `/${rows[0].name}`;
  const blocker = new pg.Client({ connectionString: url.toString() });
  await blocker.connect();

  async function waiting(n: number, ms = 3000): Promise<boolean> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      // The blocker is in a transaction, where pg_stat_activity is otherwise read once.
      await blocker.query('select pg_stat_clear_snapshot()');
      const { rows: locks } = await blocker.query<{ n: number }>(
        `select count(*)::int as n from pg_locks l join pg_stat_activity a on a.pid = l.pid
          where not l.granted and a.datname = current_database()`,
      );
      if (locks[0].n >= n) return true;
      await new Promise((r) => setTimeout(r, 20));
    }
    return false;
  }

  async function race<A, B>(
    blockSql: string,
    first: () => Promise<A>,
    second: () => Promise<B>,
  ): Promise<[A, B]> {
    await blocker.query('begin');
    await blocker.query(blockSql);
    let a: Promise<A>;
    let b: Promise<B> | undefined;
    try {
      a = first();
      expect(await waiting(1)).toBe(true);
      b = second();
      let answered = false;
      void b.finally(() => (answered = true)).catch(() => undefined);
      const until = Date.now() + 3000;
      while (!answered && Date.now() < until) {
        if (await waiting(2, 50)) break;
      }
    } finally {
      await blocker.query('rollback');
    }
    return Promise.all([a, b as Promise<B>]);
  }

  return { race, waiting, blocker, close: () => blocker.end() };
}
