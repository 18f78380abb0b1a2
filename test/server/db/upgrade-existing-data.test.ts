import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../../src/server/db/database';
import { migrate } from '../../../src/server/db/migrate';
import { MIGRATIONS } from '../../../src/server/db/migrations';
import { openEmptyPglite } from '../helpers/test-database';
import { openPostgres } from '../../../src/server/db/postgres-database';
import { buildRecords } from '../../../src/server/records/app';
import { seedDemoActivity, seedDemoSites } from '../../../src/server/records/seed';
import { SEX_ID, SPECIES_ID, TRAP_ID } from '../../../src/server/records/seed/lookup-data';
import { seedTestAccounts } from '../../helpers/seed-test-accounts';

const PASSWORD = 'upgrade-test-password';

/**
 * An agency's existing database brought from an older migration level to this one. The old
 * database is written by applying the migrations up to that level only, then filled as the older
 * version would have filled it: the demo weeks, plus look-alikes on purpose (two collections of
 * one site, night and trap with the same catch, two equal pools, same-day re-tests), retired
 * records, a neighbour agency numbering the same series. Runs on PGlite, and on PostgreSQL too
 * when TRAPLINE_TEST_DATABASE_URL is set (a review_ops_* database, dropped after).
 */
async function emptyDatabase(): Promise<{ db: Database; drop: () => Promise<void> }> {
  const adminUrl = process.env.TRAPLINE_TEST_DATABASE_URL;
  if (!adminUrl) {
    const db = await openEmptyPglite();
    return { db, drop: () => db.close() };
  }
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

const upTo = (level: number) => MIGRATIONS.filter((m) => m.version <= level);

/** What an older version wrote: demo weeks plus look-alike and retired records, in SQL. */
async function fillAsOlderVersion(db: Database, level: number): Promise<void> {
  const now = new Date('2026-07-20T12:00:00Z');
  await db.transaction(async (tx) => {
    await seedTestAccounts(tx, PASSWORD);
    const sites = await seedDemoSites(tx, now);
    await seedDemoActivity(tx, sites, now);
    await lookAlikes(tx, sites[0].id, level);
  });
}

async function lookAlikes(tx: Queryable, site: number, level: number): Promise<void> {
  const one = async <T>(sql: string, params: unknown[]) =>
    (await tx.query<T & Record<string, unknown>>(sql, params)).rows[0];
  const nextNum = async (table: 'collection' | 'pool', agency: number) =>
    (
      await one<{ n: number }>(
        `select coalesce(max(${table}_num), 0)::int + 1 as n from ${table} where agency = $1 and surv_year = 2026`,
        [agency],
      )
    ).n;
  // Two traps of one kind at one site on one night, the same catch: two collections.
  const twins: number[] = [];
  for (let i = 0; i < 2; i++) {
    const c = await one<{ id: number }>(
      `insert into collection (agency, site, collection_date, collection_num, num_trap, surv_year, trap, trap_nights)
       values (1, $1, '2026-07-14T13:30:00Z', $2, 1, 2026, $3, 1) returning id`,
      [site, await nextNum('collection', 1), TRAP_ID.co2],
    );
    twins.push(c.id);
    await tx.query(
      `insert into abundance (collection, agency, species, sex, num_count) values ($1, 1, $2, $3, 40), ($1, 1, $2, $4, 3)`,
      [c.id, SPECIES_ID.cxTarsalis, SEX_ID.fUnfed, SEX_ID.male],
    );
  }
  // Two equal pools of the first twin; before level 4 one without its collection's date (the
  // older version did not copy it).
  const pools: number[] = [];
  for (const date of [level < 4 ? null : '2026-07-14T13:30:00Z', '2026-07-14T13:30:00Z']) {
    const p = await one<{ id: number }>(
      `insert into pool (agency, collection, site, surv_year, pool_num, num_count, species, sex, collection_date, trap)
       values (1, $1, $2, 2026, $3, 20, $4, $5, $6, $7) returning id`,
      [
        twins[0],
        site,
        await nextNum('pool', 1),
        SPECIES_ID.cxTarsalis,
        SEX_ID.fUnfed,
        date,
        TRAP_ID.co2,
      ],
    );
    pools.push(p.id);
  }
  // Same-day re-tests of each pool (agency 3 is the outside laboratory).
  for (const pool of pools) {
    for (const status of [3, 2]) {
      await tx.query(
        `insert into pool_test (agency, pool, method, target, status, test_date, test_agency, value)
         values (1, $1, 1, 1, $2, '2026-07-16T00:00:00Z', 3, 0)`,
        [pool, status],
      );
    }
  }
  // Retired records: a deleted collection with its pool, and a deleted pool whose tests the older
  // version left active (migration 8 retires them).
  const gone = await one<{ id: number }>(
    `insert into collection (agency, site, collection_date, collection_num, num_trap, surv_year, trap, trap_nights, deactive_date)
     values (1, $1, '2026-07-13T13:30:00Z', $2, 1, 2026, $3, 1, '2026-07-15T00:00:00Z') returning id`,
    [site, await nextNum('collection', 1), TRAP_ID.gravid],
  );
  const gonePool = await one<{ id: number }>(
    `insert into pool (agency, collection, site, surv_year, pool_num, num_count, species, sex, collection_date, deactive_date)
     values (1, $1, $2, 2026, $3, 12, $4, $5, '2026-07-13T13:30:00Z', '2026-07-15T00:00:00Z') returning id`,
    [gone.id, site, await nextNum('pool', 1), SPECIES_ID.cxTarsalis, SEX_ID.fUnfed],
  );
  await tx.query(
    `insert into pool_test (agency, pool, method, target, status, test_date, test_agency, value)
     values (1, $1, 1, 1, 1, '2026-07-16T00:00:00Z', 3, 31.5)`,
    [gonePool.id],
  );
  // The neighbour agency numbers its own series: the same numbers, another agency.
  const zero = await one<{ id: number }>(
    `select id from site where agency = 2 and code = '000000'`,
    [],
  );
  for (let n = 1; n <= 3; n++) {
    await tx.query(
      `insert into collection (agency, site, collection_date, collection_num, num_trap, surv_year, trap, trap_nights)
       values (2, $1, '2026-07-14T13:30:00Z', $2, 1, 2026, $3, 1)`,
      [zero.id, n, TRAP_ID.co2],
    );
  }
}

/** Every row of every table, as text, in a stable order; columns a migration may change dropped. */
async function snapshot(db: Database): Promise<Record<string, string[]>> {
  const { rows: tables } = await db.query<{ t: string }>(
    `select table_name as t from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE'
        and table_name not in ('schema_migration', 'live_record_count', 'lookup_version')
        -- Migration 12 starts the history empty: what was written before has none.
        and table_name <> 'record_history'
      order by 1`,
  );
  const dropped: Record<string, string[]> = {
    // Migration 4 copies the collection's date onto its pools; 8 retires a deleted pool's tests.
    pool: ['collection_date'],
    pool_test: ['deactive_date', 'updated'],
    // Migration 11 adds the people columns (compared in people-migration.test.ts).
    app_user: ['add_date', 'updated', 'last_login', 'password_expires_at'],
    // Migration 13 adds the renewal columns: null and false on every existing row.
    api_token: ['renewed_at', 'family'],
    bff_session: ['renew_refused'],
  };
  const out: Record<string, string[]> = {};
  for (const { t } of tables) {
    const minus = (dropped[t] ?? []).map((c) => ` - '${c}'`).join('');
    const { rows } = await db.query<{ j: string }>(
      `select (to_jsonb(r)${minus})::text as j from ${t} r order by 1`,
    );
    out[t] = rows.map((r) => r.j);
  }
  return out;
}

/**
 * Every table that held records holds the same after an upgrade; a table a later migration adds
 * (the BFF's photos, migration 14) starts empty.
 */
async function expectRecordsKept(db: Database, before: Record<string, string[]>): Promise<void> {
  const after = await snapshot(db);
  expect(Object.fromEntries(Object.keys(before).map((t) => [t, after[t]]))).toEqual(before);
  for (const t of Object.keys(after).filter((t) => !(t in before)))
    expect(after[t], `${t}, added by an upgrade`).toEqual([]);
}

async function liveTests(db: Database): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    `select t.id from pool_test t join pool p on p.id = t.pool
      where t.deactive_date is null and p.deactive_date is null order by t.id`,
  );
  return rows.map((r) => r.id);
}

describe('upgrading an existing database to this version', () => {
  for (const level of [3, 7]) {
    it(`from migration level ${level}: no record changed, lost or renumbered; counts and numbering carry on`, async () => {
      const { db, drop } = await emptyDatabase();
      try {
        await migrate(db, upTo(level));
        await fillAsOlderVersion(db, level);
        const before = await snapshot(db);
        const testsToKeep = await liveTests(db);
        const sqlCounts = async () =>
          (
            await db.query<{ k: string; n: number }>(
              `select 'collection:' || agency as k, count(*)::int as n from collection where deactive_date is null group by agency
               union all select 'pool:' || agency, count(*)::int from pool where deactive_date is null group by agency
               union all select 'pool_test:' || agency, count(*)::int from pool_test where deactive_date is null group by agency
               order by 1`,
            )
          ).rows;
        const countsBefore = await sqlCounts();

        const applied = await migrate(db);
        expect(applied).toEqual(MIGRATIONS.filter((m) => m.version > level).map((m) => m.version));

        await expectRecordsKept(db, before);
        expect(await liveTests(db)).toEqual(testsToKeep);
        const { rows: undated } = await db.query(
          `select p.id from pool p join collection c on c.id = p.collection
            where p.collection_date is distinct from c.collection_date`,
        );
        expect(undated).toEqual([]);
        // Only the deleted pool's test left the counts.
        const countsAfter = await sqlCounts();
        expect(countsAfter).toEqual(
          countsBefore.map((c) => (c.k === 'pool_test:1' ? { ...c, n: c.n - 1 } : c)),
        );

        // The service on the upgraded database: its counts agree, and numbering carries on.
        const app = await buildRecords({ db, logger: false });
        try {
          const login = await app.inject({
            method: 'POST',
            url: '/login',
            payload: { username: 'demo-manager', password: PASSWORD },
          });
          expect(login.statusCode).toBe(200);
          const headers = { authorization: `Bearer ${login.json().token}` };
          const count = async (path: string) => {
            const res = await app.inject({ method: 'GET', url: `${path}?pageSize=1`, headers });
            expect(res.statusCode, res.body).toBe(200);
            return res.json().count as number;
          };
          const n = (k: string) => countsAfter.find((c) => c.k === k)?.n ?? 0;
          expect(await count('/v1/arthropod/collection')).toBe(n('collection:1'));
          expect(await count('/v1/arthropod/pool')).toBe(n('pool:1'));
          expect(await count('/v1/arthropod/pool/test')).toBe(n('pool_test:1'));

          const { rows: top } = await db.query<{ num: number; id: number }>(
            `select max(collection_num)::int as num, max(id)::int as id from collection where agency = 1 and surv_year = 2026`,
          );
          const created = await app.inject({
            method: 'POST',
            url: '/v1/arthropod/collection',
            headers,
            payload: {
              collection_date: '2026-07-21',
              num_trap: 1,
              trap: TRAP_ID.co2,
              trap_nights: 1,
              site: (
                await db.query<{ id: number }>(
                  `select min(id)::int as id from site where agency = 1 and code <> '000000'`,
                )
              ).rows[0].id,
            },
          });
          expect(created.statusCode, created.body).toBe(201);
          expect(created.json().collection_num).toBe(top[0].num + 1);
          expect(created.json().id).toBeGreaterThan(top[0].id);
          expect(await count('/v1/arthropod/collection')).toBe(n('collection:1') + 1);
        } finally {
          await app.close();
        }
      } finally {
        await drop();
      }
    }, 120_000);
  }
});

describe('a database this version cannot take as it is', () => {
  it('refuses a database migrated by a newer version, and writes nothing into it', async () => {
    const { db, drop } = await emptyDatabase();
    try {
      await migrate(db);
      await db.query(`insert into schema_migration (version, name) values (99, 'from-the-future')`);
      const tables = async () =>
        (
          await db.query<{ n: number }>(
            `select count(*)::int as n from information_schema.tables where table_schema = 'public'`,
          )
        ).rows[0].n;
      const before = await tables();
      const refused = await migrate(db).then(
        () => null,
        (err: Error) => err,
      );
      expect(refused?.message).toMatch(/newer version of Trapline/);
      expect(refused?.message).toContain('99');
      expect(await tables()).toBe(before);
    } finally {
      await drop();
    }
  }, 60_000);

  it('rolls a migration that fails half-way back whole, and says which one and what to do', async () => {
    const { db, drop } = await emptyDatabase();
    try {
      await migrate(db, upTo(7));
      await fillAsOlderVersion(db, 7);
      const before = await snapshot(db);
      // An eighth migration whose second half meets data it did not expect.
      const failing = {
        version: 8,
        name: 'retired-pool-tests',
        sql: `update pool_test set comments = 'touched';
              create table half_made (id int);
              alter table collection add constraint no_twins check (collection_num < 0);`,
      };
      const err = await migrate(db, [...upTo(7), failing]).then(
        () => null,
        (e: Error) => e,
      );
      expect(err?.message).toMatch(/Migration 8 \(retired-pool-tests\) failed/);
      expect(err?.message).toMatch(/rolled back/);
      expect(err?.message).toContain('no_twins');
      await expectRecordsKept(db, before);
      const { rows } = await db.query<{ v: number }>(
        'select max(version)::int as v from schema_migration',
      );
      expect(rows[0].v).toBe(7);
      // The next start, with the real migrations, carries on from level 7.
      expect(await migrate(db)).toEqual(
        MIGRATIONS.filter((m) => m.version > 7).map((m) => m.version),
      );
    } finally {
      await drop();
    }
  }, 60_000);
});

describe.runIf(process.env.TRAPLINE_TEST_DATABASE_URL)(
  'two processes upgrading one PostgreSQL at once',
  () => {
    it('apply each pending migration once between them, neither fails, no record changes', async () => {
      const { db, drop } = await emptyDatabase();
      const url = new URL(process.env.TRAPLINE_TEST_DATABASE_URL!);
      const { rows } = await db.query<{ d: string }>('select current_database() as d');
      url.pathname = `/${rows[0].d}`;
      const other = await openPostgres(url.toString());
      try {
        await migrate(db, upTo(3));
        await fillAsOlderVersion(db, 3);
        const before = await snapshot(db);
        const [a, b] = await Promise.all([migrate(db), migrate(other)]);
        expect([...a, ...b].sort((x, y) => x - y)).toEqual(
          MIGRATIONS.filter((m) => m.version > 3).map((m) => m.version),
        );
        await expectRecordsKept(db, before);
        const { rows: versions } = await db.query<{ n: number }>(
          'select count(*)::int as n from schema_migration',
        );
        expect(versions[0].n).toBe(MIGRATIONS.length);
      } finally {
        await other.close();
        await drop();
      }
    }, 60_000);
  },
);
