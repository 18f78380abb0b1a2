import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../src/server/db/database';
import { buildRecords } from '../../../src/server/records/app';
import { seedIfEmpty, type SeedResult } from '../../../src/server/records/seed';
import { LOOKUP_LISTS, listOf } from '../../../src/shared';
import { openTestDatabase } from '../helpers/test-database';

let db: Database;
let app: FastifyInstance;
let dataDir: string;
let seeded: SeedResult;
let token: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'trapline-seed-'));
  db = await openTestDatabase();
  seeded = await seedIfEmpty(db, { dataDir, now: new Date('2026-08-20T18:00:00.000Z') });
  app = await buildRecords({ db });
  if (!seeded.created) throw new Error('expected a seed');
  const res = await app.inject({
    method: 'POST',
    url: '/login',
    payload: { username: 'demo-manager', password: seeded.credentials.password },
  });
  token = res.json().token;
});
afterAll(async () => {
  await app.close();
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const get = (url: string) =>
  app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

describe('seeding a new database', () => {
  it('generates a password, writes it to demo-credentials.txt readable by the owner only, and it signs in', () => {
    if (!seeded.created) throw new Error('not seeded');
    const { credentials } = seeded;
    expect(credentials.generated).toBe(true);
    expect(credentials.password.length).toBeGreaterThanOrEqual(16);
    expect(credentials.file).toBe(join(dataDir, 'demo-credentials.txt'));
    expect(statSync(credentials.file!).mode & 0o777).toBe(0o600);
    const text = readFileSync(credentials.file!, 'utf8');
    for (const u of ['demo-manager', 'demo-tech', 'neighbor-manager'])
      expect(text).toContain(`${u}\t${credentials.password}`);
    expect(token).toBeTypeOf('string');
  });

  it("stores the demo accounts' passwords at the service's own scrypt cost (N=2^15)", async () => {
    const { rows } = await db.query<{ password_hash: string }>(
      `select password_hash from app_user order by id`,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const { password_hash } of rows) {
      expect(password_hash.split('$').slice(0, 4)).toEqual(['scrypt', '32768', '8', '1']);
    }
  });

  it('does nothing on a database that already has agencies', async () => {
    expect(await seedIfEmpty(db, { demoPassword: 'other' })).toEqual({ created: false });
  });

  it('creates the demo agencies, about 40 demo sites and a few weeks of collections, pools and tests', async () => {
    if (!seeded.created) throw new Error('not seeded');
    expect(seeded.accounts.agencies.map((a) => a.name)).toEqual([
      'Demo Vector Control District',
      'Neighbor Mosquito Abatement District',
      'Regional Arbovirus Laboratory',
    ]);
    expect(seeded.sites).toBeGreaterThanOrEqual(40);
    expect(seeded.activity.collections).toBeGreaterThanOrEqual(40);
    expect(seeded.activity.pools).toBeGreaterThan(10);
    expect(seeded.activity.tests).toBeGreaterThan(5);
    const sites = (await get('/v1/site?pageSize=1000')).json();
    expect(sites.count).toBe(seeded.sites + 1); // + the Zero Site
    const codes = new Set(sites.rows.map((s: { code: string }) => s.code));
    expect(codes.size).toBe(sites.count);
  });

  it('never pools more than the abundance row holds, and tests come after collection', async () => {
    const over = await db.query(
      `select p.id from pool p join abundance a on a.collection = p.collection and a.species = p.species and a.sex = p.sex
        group by p.id, a.num_count having sum(p.num_count) > a.num_count`,
    );
    expect(over.rows).toEqual([]);
    const early = await db.query(
      'select t.id from pool_test t join pool p on p.id = t.pool where t.test_date < p.collection_date',
    );
    expect(early.rows).toEqual([]);
    const nums = await db.query<{ n: number }>(
      'select count(distinct collection_num)::int as n from collection',
    );
    expect(nums.rows[0].n).toBe(seeded.created ? seeded.activity.collections : 0);
  });
});

describe('lookup lists', () => {
  it.each(Object.entries(LOOKUP_LISTS))(
    'GET %s answers {rows, count} in the shared shape',
    async (_name, { path, schema }) => {
      const res = await get(path);
      expect(res.statusCode).toBe(200);
      const body = listOf(schema).parse(res.json());
      expect(body.rows.length).toBeGreaterThan(0);
      expect(body.count).toBe(body.rows.length);
      for (const row of res.json().rows) expect(Object.keys(row)[0]).toBe('id');
    },
  );

  it('holds the real names of contract §5', async () => {
    const names = async (path: string, key: string) =>
      (await get(path)).json().rows.map((r: Record<string, unknown>) => r[key]);
    expect(await names('/v1/species', 'full_name')).toEqual(
      expect.arrayContaining([
        'Culex tarsalis',
        'Culex pipiens',
        'Culex quinquefasciatus',
        'Culiseta inornata',
        'Aedes aegypti',
        'Aedes albopictus',
        'Aedes vexans',
        'Anopheles freeborni',
      ]),
    );
    expect(await names('/v1/sex', 'name')).toEqual(
      expect.arrayContaining(['F-Mixed', 'F-Unfed', 'F-Bloodfed', 'F-Gravid']),
    );
    expect(await names('/v1/trap', 'acronym')).toEqual(
      expect.arrayContaining([
        'GRVD',
        'CO2',
        'BGSENT',
        'LCKR',
        'NJLT',
        'MMT',
        'BACKPACK',
        'OTHER',
        'OVI-PRES',
      ]),
    );
    expect(await names('/v1/test/target', 'acronym')).toEqual([
      'WNV',
      'SLEV',
      'WEEV',
      'ZIKV',
      'CHIKV',
      'DENV',
    ]);
    expect(await names('/v1/test/status', 'name')).toEqual([
      'Confirmed',
      'Negative',
      'Pending',
      'Presumptive',
      'Inconclusive',
      'Other',
    ]);
    const methods = (await get('/v1/test/method')).json().rows;
    expect([...methods].sort((a, b) => b.sensitivity - a.sensitivity)[0].name).toBe('RT-PCR');
    const precisions = (await get('/v1/coordinate-precision')).json().rows;
    expect(precisions[0]).toMatchObject({ name: 'GPS (< 10 m)', meters: 10 });
    expect(precisions.at(-1)).toMatchObject({ name: 'County centroid', meters: 50000 });
    const sacramento = (await get('/v1/region'))
      .json()
      .rows.find((r: { namelsad: string }) => r.namelsad === 'Sacramento County');
    expect(sacramento).toMatchObject({ type: 'county', geoid: '06067', parent: 1 });
  });

  it('lists only active entries', async () => {
    await db.query("update species set active = false where full_name = 'Aedes sierrensis'");
    const names = (await get('/v1/species'))
      .json()
      .rows.map((r: { full_name: string }) => r.full_name);
    expect(names).not.toContain('Aedes sierrensis');
  });

  it('lists every agency, populating region and shape on request', async () => {
    const res = await get('/v1/agency?populate[]=region&populate[]=shape');
    expect(res.statusCode).toBe(200);
    const [first] = res.json().rows;
    expect(first).toMatchObject({
      id: 1,
      code: 'DVCD',
      name: 'Demo Vector Control District',
      state_acronym: 'CA',
      shape: null,
    });
    expect(first.region).toMatchObject({ id: 2, namelsad: 'Sacramento County' });
    expect(res.json().count).toBe(3);
    const bad = await get('/v1/agency?populate[]=users');
    expect(bad.statusCode).toBe(422);
  });
});
