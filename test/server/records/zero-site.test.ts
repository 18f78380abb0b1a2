import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../../src/server/db/migrate';
import { MIGRATIONS } from '../../../src/server/db/migrations';
import { buildTestRecords, type TestRecords } from '../helpers/records-app';
import { makeSite } from './factories/make-site';

/**
 * Contract §6: each agency has exactly one Zero Site (code 000000), created with the agency.
 * Issue 9, D6: deactivating it, creating another 000000 site and clearing the deactivation
 * left two live Zero Sites, and the new one could not be deleted.
 */
let t: TestRecords;
let manager: string;
let tech: string;

beforeAll(async () => {
  t = await buildTestRecords();
  [manager, tech] = await Promise.all([t.login('demo-manager'), t.login('demo-tech')]);
}, 180_000);
afterAll(async () => t?.close());

const send = (method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url, headers: t.auth(token), ...(payload ? { payload } : {}) });

async function liveZeroSites(token: string) {
  const res = await send('GET', '/v1/site?query[code]=000000', token);
  expect(res.statusCode).toBe(200);
  return res.json().rows as { id: number; deactive_date: string | null }[];
}

describe('exactly one live Zero Site per agency', () => {
  it('the D6 sequence leaves the one Zero Site, active, and no second 000000', async () => {
    const [zero] = await liveZeroSites(manager);
    const deactivate = await send('PUT', `/v1/site/${zero.id}`, manager, {
      deactive_date: '2026-01-01',
    });
    expect(deactivate.statusCode, deactivate.body).toBe(422);
    expect(deactivate.json().error.fields.map((f: { path: string }) => f.path)).toEqual([
      'deactive_date',
    ]);
    expect(deactivate.json().error.message).toMatch(/Zero Site/);

    const second = await send(
      'POST',
      '/v1/site',
      manager,
      makeSite({ code: '000000', active_date: '2026-02-01' }),
    );
    expect(second.statusCode, second.body).toBe(409);
    expect(second.json().error).toMatchObject({
      code: 'site_code_taken',
      fields: [{ path: 'code' }],
    });
    expect(second.json().error.message).toMatch(/reserved for the Zero Site/);

    const cleared = await send('PUT', `/v1/site/${zero.id}`, manager, { deactive_date: null });
    expect(cleared.statusCode, cleared.body).toBe(200);
    const live = await liveZeroSites(manager);
    expect(live.map((s) => s.id)).toEqual([zero.id]);
    expect(live[0].deactive_date).toBeNull();
  });

  it('no site can be renamed to 000000, whoever asks', async () => {
    for (const token of [manager, tech]) {
      const site = (await send('POST', '/v1/site', token, makeSite())).json();
      const res = await send('PUT', `/v1/site/${site.id}`, token, { code: '000000' });
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().error.code).toBe('site_code_taken');
    }
    expect(await liveZeroSites(manager)).toHaveLength(1);
  });

  it('a Zero Site PUT that sends its own code and no deactive_date still succeeds', async () => {
    const [zero] = await liveZeroSites(manager);
    const res = await send('PUT', `/v1/site/${zero.id}`, manager, {
      code: '000000',
      comments: 'Calls away from any site',
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('the database itself holds one undeleted 000000 site per agency', async () => {
    await expect(
      t.db.query(
        `insert into site (agency, code, name, coordinate_precision, lon, lat) values (1, '000000', 'Second zero', 1, -121, 38)`,
      ),
    ).rejects.toThrow();
    await expect(
      t.db.query(`update site set deactive_date = now() where agency = 1 and code = '000000'`),
    ).rejects.toThrow();
  });
});

describe('the migration mends an agency that already has two', () => {
  it('keeps the first (the agency’s own) active and retires the later copies', async () => {
    const db = t.db;
    // The database is fully migrated; roll the Zero Site migration back by hand to replay it.
    const zeroMigration = MIGRATIONS.find((m) => m.name === 'zero-site');
    expect(zeroMigration).toBeDefined();
    await db.exec(`drop index if exists site_one_zero_site;
      alter table site drop constraint if exists site_zero_site_stays_active;
      delete from schema_migration where version = ${zeroMigration!.version};`);
    await db.exec(`insert into agency (id, code, name) values (901, 'T901', 'Twice zeroed')`);
    const { rows } = await db.query<{ id: number }>(
      `insert into site (agency, code, name, coordinate_precision, lon, lat, deactive_date, delete_date) values
         (901, '000000', 'Zero Site', 1, -121, 38, '2026-01-01', null),
         (901, '000000', 'Copy', 1, -121, 38, null, null),
         (901, '000000', 'Deleted copy', 1, -121, 38, null, now())
       returning id`,
    );
    expect(await migrate(db)).toEqual([zeroMigration!.version]);
    const after = await db.query<{ id: number; deactive: boolean; deleted: boolean }>(
      `select id, deactive_date is not null as deactive, delete_date is not null as deleted
         from site where agency = 901 order by id`,
    );
    expect(after.rows).toEqual([
      { id: rows[0].id, deactive: false, deleted: false },
      { id: rows[1].id, deactive: false, deleted: true },
      { id: rows[2].id, deactive: false, deleted: true },
    ]);
  });
});
