import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/server/db/database';
import { migrate } from '../../../src/server/db/migrate';
import { openDatabase } from '../../../src/server/db/open-database';
import { migratedDataDir } from '../../helpers/migrated-data-dir';
import { openTestDatabase } from '../helpers/test-database';

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
  await db.exec('create table probe (id serial primary key, n int not null)');
});
afterAll(() => db.close());

describe('database layer', () => {
  it('applies each migration once, however often it starts', async () => {
    expect(await migrate(db)).toEqual([]);
    const { rows } = await db.query<{ version: number }>(
      'select version from schema_migration order by version',
    );
    expect(rows.map((r) => r.version)[0]).toBe(1);
  });

  it('rolls a failed transaction back whole: no half-written rows', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into probe (n) values ($1)', [1]);
        await tx.query('insert into probe (n) values ($1)', [null]);
      }),
    ).rejects.toThrow();
    const { rows } = await db.query<{ c: number }>('select count(*)::int as c from probe');
    expect(rows[0].c).toBe(0);
  });

  it('keeps concurrent transactions from interleaving (read-then-write stays consistent)', async () => {
    await db.query('insert into probe (n) values (0)');
    await Promise.all(
      Array.from({ length: 20 }, () =>
        db.transaction(async (tx) => {
          await tx.query('select pg_advisory_xact_lock(42)');
          const { rows } = await tx.query<{ n: number }>('select max(n)::int as n from probe');
          await tx.query('insert into probe (n) values ($1)', [rows[0].n + 1]);
        }),
      ),
    );
    const { rows } = await db.query<{ n: number; c: number }>(
      'select max(n)::int as n, count(distinct n)::int as c from probe',
    );
    expect(rows[0]).toEqual({ n: 20, c: 21 });
  });

  it('binds values as parameters, never as SQL', async () => {
    const evil = '1); drop table probe; --';
    const { rows } = await db.query<{ v: string }>('select $1::text as v', [evil]);
    expect(rows[0].v).toBe(evil);
    expect((await db.query('select count(*) from probe')).rows).toHaveLength(1);
  });
});

describe.skipIf(process.env.TRAPLINE_TEST_DATABASE_URL)('the embedded database', () => {
  it("keeps a data directory's files and starts with the shared buffers it is given", async () => {
    // A copy of the run's migrated data directory, not an initdb of its own.
    const dataDir = migratedDataDir('trapline-buffers-');
    try {
      const small = await openDatabase({ dataDir, sharedBuffers: '16MB' });
      await small.exec('create table kept (n int)');
      await small.query('insert into kept values (7)');
      expect((await small.query('show shared_buffers')).rows).toEqual([{ shared_buffers: '16MB' }]);
      await small.close();
      const again = await openDatabase({ dataDir });
      expect((await again.query('show shared_buffers')).rows).toEqual([
        { shared_buffers: '128MB' },
      ]);
      expect((await again.query('select n from kept')).rows).toEqual([{ n: 7 }]);
      await again.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.runIf(process.env.TRAPLINE_TEST_DATABASE_URL)('on PostgreSQL', () => {
  it('survives the server ending an idle connection, and the next query reconnects', async () => {
    const { rows } = await db.query<{ pid: number }>('select pg_backend_pid() as pid');
    // A second connection ends the first, as a server restart or failover would.
    const other = await openTestDatabase();
    try {
      await other.query('select pg_terminate_backend($1)', [rows[0].pid]);
    } finally {
      await other.close();
    }
    await new Promise((r) => setTimeout(r, 100));
    const again = await db.query<{ one: number }>('select 1 as one');
    expect(again.rows[0].one).toBe(1);
  });
});
