import pg from 'pg';
import type { Database, Row } from './database';

// count(*) and bigint columns as numbers, as PGlite returns them; timestamps stay Date objects on both.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection the server ends (restart, failover, a dropped database) must not crash the
  // process: the pool discards that client and the next query opens a new one. Errors of a
  // connection in use still reject its query.
  pool.on('error', () => undefined);
  try {
    await pool.query('select 1');
  } catch (err) {
    await pool.end().catch(() => undefined);
    // Start-up prints this one line: say it is DATABASE_URL and which server, never the password.
    let where = 'DATABASE_URL';
    try {
      const u = new URL(url);
      where += ` (${u.username ? `${decodeURIComponent(u.username)}@` : ''}${u.host}${u.pathname})`;
    } catch {
      // not a URL pg could read either; its own message says so
    }
    const message = err instanceof Error ? err.message : String(err);
    throw new Error(`Cannot open the PostgreSQL database of ${where}: ${message}`, { cause: err });
  }
  const listeners = new Set<pg.Client>();
  return {
    kind: 'postgres',
    async query<T extends Row>(sql: string, params: readonly unknown[] = []) {
      const res = await pool.query(sql, params as unknown[]);
      return { rows: res.rows as T[] };
    },
    async exec(sql: string) {
      await pool.query(sql);
    },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn({
          async query<T extends Row>(sql: string, params: readonly unknown[] = []) {
            const res = await client.query(sql, params as unknown[]);
            return { rows: res.rows as T[] };
          },
          async exec(sql: string) {
            await client.query(sql);
          },
        });
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    async listen(channel, onMessage, onEnd) {
      if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name ${channel}`);
      const client = new pg.Client({ connectionString: url });
      // A connection lost says so through 'end' (after 'error'); the caller listens again.
      client.on('error', () => undefined);
      client.on('notification', (n) => {
        if (n.channel === channel) onMessage(n.payload ?? '');
      });
      client.once('end', () => {
        listeners.delete(client);
        onEnd();
      });
      listeners.add(client);
      try {
        await client.connect();
        await client.query(`listen ${channel}`);
      } catch (err) {
        await client.end().catch(() => undefined);
        throw err;
      }
    },
    async close() {
      await Promise.all([...listeners].map((c) => c.end().catch(() => undefined)));
      await pool.end();
    },
  };
}
