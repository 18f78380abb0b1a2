import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../../src/server/db/database';
import { migrate } from '../../../src/server/db/migrate';
import { MIGRATIONS } from '../../../src/server/db/migrations';
import { openEmptyPglite } from '../helpers/test-database';
import { openPostgres } from '../../../src/server/db/postgres-database';

/**
 * Issue 2 gap 15: two processes starting at once on a fresh database both migrate. On PGlite
 * (one connection) the calls queue; on PostgreSQL (CI, TRAPLINE_TEST_DATABASE_URL) they race for
 * real, which is where taking the lock before `create table if not exists` matters.
 */
async function freshDatabase(): Promise<{ db: Database; drop: () => Promise<void> }> {
  const adminUrl = process.env.TRAPLINE_TEST_DATABASE_URL;
  if (!adminUrl) {
    const db = await openEmptyPglite();
    return { db, drop: () => db.close() };
  }
  const name = `trapline_migrate_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(sql);
    await c.end();
  };
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openPostgres(url.toString());
  return {
    db,
    drop: async () => {
      await db.close();
      await admin(`drop database if exists ${name} with (force)`);
    },
  };
}

describe('migrating a fresh database from two starts at once', () => {
  it('applies every migration exactly once and neither start fails', async () => {
    const { db, drop } = await freshDatabase();
    try {
      const [a, b] = await Promise.all([migrate(db), migrate(db)]);
      expect([...a, ...b].sort((x, y) => x - y)).toEqual(
        MIGRATIONS.map((m) => m.version).sort((x, y) => x - y),
      );
      const { rows } = await db.query<{ n: number }>(
        'select count(*)::int as n from schema_migration',
      );
      expect(rows[0].n).toBe(MIGRATIONS.length);
    } finally {
      await drop();
    }
  }, 60_000);
});
