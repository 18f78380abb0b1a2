import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/server/db/open-database';
import { startRecordsServer } from '../../../src/server/records/server';

/**
 * Scale-out start-up on one PostgreSQL: two records services (as two `--workers`, or two hosts)
 * starting at the same moment on a fresh database both migrate and both try the first seeding;
 * and a database already holding an agency's own data gets no demo agency, account or record.
 * Each test runs on a review_ops_* database of TRAPLINE_TEST_DATABASE_URL, dropped after.
 */
const adminUrl = process.env.TRAPLINE_TEST_DATABASE_URL;

async function withDatabase(fn: (url: string) => Promise<void>): Promise<void> {
  const name = `review_ops_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(adminUrl!);
  url.pathname = `/${name}`;
  try {
    await fn(url.toString());
  } finally {
    await admin(`drop database if exists ${name} with (force)`);
  }
}

const counts = `select (select count(*) from agency)::int as agencies,
                       (select count(*) from app_user)::int as users,
                       (select count(*) from site)::int as sites,
                       (select count(*) from collection)::int as collections,
                       (select count(*) from pool)::int as pools,
                       (select count(*) from pool_test)::int as tests,
                       (select count(*) from schema_migration)::int as migrations`;

describe.runIf(adminUrl)('records services starting on one PostgreSQL', () => {
  it('two at once on a fresh database: both start, migrations and demo data once', async () => {
    await withDatabase(async (url) => {
      const env = { RECORDS_PORT: 0, DATABASE_URL: url, TRAPLINE_DEMO_PASSWORD: 'two-starts-pw' };
      const [a, b] = await Promise.all([
        startRecordsServer(env, { logger: false }),
        startRecordsServer(env, { logger: false }),
      ]);
      try {
        expect([a, b].filter((s) => s.demoCredentials !== null)).toHaveLength(1);
        const { rows } = await a.db.query<Record<string, number>>(counts);
        // The same seeding into a database of its own: what one start makes.
        const single = await startRecordsServer(
          { RECORDS_PORT: 0, TRAPLINE_DEMO_PASSWORD: 'two-starts-pw' },
          { logger: false },
        );
        try {
          const { rows: expected } = await single.db.query<Record<string, number>>(counts);
          expect(rows[0]).toEqual(expected[0]);
        } finally {
          await single.close();
        }
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });
  }, 120_000);

  it("on an agency's own data: no demo agency, account, site or record is added", async () => {
    await withDatabase(async (url) => {
      const db = await openDatabase({ databaseUrl: url });
      try {
        await db.exec(`
          insert into agency (code, name, state_acronym) values ('RCM', 'River County MVCD', 'CA');
          insert into coordinate_precision (name, meters) values ('GPS', 10);
          insert into trap (acronym, name) values ('CO2', 'CO2 trap');
          insert into app_user (agency, username, name, role, password_hash)
            values (1, 'rc-manager', 'Dana', 'manager', 'x');
          insert into site (agency, code, name, coordinate_precision, lon, lat)
            values (1, '000000', 'Zero Site', 1, 0, 0), (1, '100001', 'Levee pond', 1, -121.5, 38.6);
          insert into collection (agency, site, collection_date, collection_num, num_trap, surv_year, trap, trap_nights)
            values (1, 2, '2026-07-14', 1, 1, 2026, 1, 1);`);
      } finally {
        await db.close();
      }
      const check = await openDatabase({ databaseUrl: url });
      const before = (await check.query<Record<string, number>>(counts)).rows[0];
      await check.close();
      const [a, b] = await Promise.all([
        startRecordsServer({ RECORDS_PORT: 0, DATABASE_URL: url }, { logger: false }),
        startRecordsServer({ RECORDS_PORT: 0, DATABASE_URL: url }, { logger: false }),
      ]);
      try {
        expect(a.demoCredentials).toBeNull();
        expect(b.demoCredentials).toBeNull();
        expect((await a.db.query<Record<string, number>>(counts)).rows[0]).toEqual(before);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });
  }, 120_000);
});
