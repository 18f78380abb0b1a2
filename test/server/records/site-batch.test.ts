import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecords, type TestRecords } from '../helpers/records-app';
import { makeSite } from './factories/make-site';

/** POST /v1/site/batch (Trapline extension): many site creates/updates in one transaction. */
let t: TestRecords;
let manager: string;
let tech: string;
let neighbor: string;

beforeAll(async () => {
  t = await buildTestRecords();
  [manager, tech, neighbor] = await Promise.all(
    ['demo-manager', 'demo-tech', 'neighbor-manager'].map((u) => t.login(u)),
  );
});
afterAll(() => t.close());

const batch = (token: string, payload: unknown, key?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/site/batch',
    headers: { ...t.auth(token), ...(key ? { 'idempotency-key': key } : {}) },
    payload: payload as object,
  });
const get = (token: string, url: string) =>
  t.app.inject({ method: 'GET', url, headers: t.auth(token) });
const count = async (sql: string, params: unknown[] = []) =>
  Number((await t.db.query<{ n: number }>(sql, params)).rows[0].n);
const sites = () => count('select count(*)::int as n from site');
const historyRows = () => count('select count(*)::int as n from record_history');

describe('POST /v1/site/batch', () => {
  it('creates every site with the defaults of POST /v1/site, a history row each, and answers per item', async () => {
    const [a, b] = [makeSite({ active_date: '2026-03-01' }), makeSite({ elevation: 12 })];
    const before = await historyRows();
    const res = await batch(manager, {
      items: [
        { op: 'create', site: a },
        { op: 'create', site: b },
      ],
    });
    expect(res.statusCode).toBe(201);
    const { results } = res.json();
    expect(results.map((r: { result: string }) => r.result)).toEqual(['created', 'created']);
    const one = (await get(manager, `/v1/site/${results[0].id}`)).json();
    expect(one).toMatchObject({ code: a.code, agency: 1, region: 2, user: expect.anything() });
    expect(one.active_date).toBe('2026-03-01T00:00:00.000Z');
    expect((await get(manager, `/v1/site/${results[1].id}`)).json()).toMatchObject({
      code: b.code,
      elevation: '12',
    });
    expect(await historyRows()).toBe(before + 2);
    const h = (await get(manager, `/v1/history?entity=site&id=${results[0].id}`)).json();
    expect(h.rows).toHaveLength(1);
    expect(h.rows[0]).toMatchObject({ action: 'create' });
    expect(h.rows[0].changes.code).toEqual([null, a.code]);
  });

  it('updates existing sites (history row) and says unchanged when nothing differs', async () => {
    const created = (await batch(manager, { items: [{ op: 'create', site: makeSite() }] })).json()
      .results[0].id as number;
    const res = await batch(manager, {
      items: [{ op: 'update', id: created, site: { name: 'Renamed by import' } }],
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().results).toEqual([{ index: 0, id: created, result: 'updated' }]);
    expect((await get(manager, `/v1/site/${created}`)).json().name).toBe('Renamed by import');
    const same = await batch(manager, {
      items: [{ op: 'update', id: created, site: { name: 'Renamed by import' } }],
    });
    expect(same.json().results).toEqual([{ index: 0, id: created, result: 'unchanged' }]);
    const h = (await get(manager, `/v1/history?entity=site&id=${created}`)).json();
    expect(h.rows.map((r: { action: string }) => r.action)).toEqual(['create', 'update']);
  });

  it('writes nothing and lists every bad item by index and field (422)', async () => {
    const taken = makeSite();
    await batch(manager, { items: [{ op: 'create', site: taken }] });
    const [sitesBefore, historyBefore] = [await sites(), await historyRows()];
    const res = await batch(manager, {
      items: [
        { op: 'create', site: makeSite() },
        { op: 'create', site: makeSite() },
        { op: 'create', site: { ...makeSite(), code: taken.code } },
        { op: 'create', site: makeSite({ coordinate_precision: 999 }) },
        { op: 'create', site: makeSite({ code: '000000' }) },
        {
          op: 'create',
          site: makeSite({ active_date: '2026-05-01', deactive_date: '2026-04-01' }),
        },
        { op: 'update', id: 999_999, site: { name: 'x' } },
      ],
    });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.error.code).toBe('validation_failed');
    const paths = body.error.fields.map((f: { path: string }) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'items.2.site.code',
        'items.3.site.coordinate_precision',
        'items.4.site.code',
        'items.5.site.deactive_date',
        'items.6.id',
      ]),
    );
    expect(paths.some((p: string) => p.startsWith('items.0.'))).toBe(false);
    expect(await sites()).toBe(sitesBefore);
    expect(await historyRows()).toBe(historyBefore);
  });

  it('answers a body of the wrong shape with every failing field, as POST /v1/site does', async () => {
    const res = await batch(manager, {
      items: [
        { op: 'create', site: makeSite({ code: 'abc' }) },
        { op: 'create', site: makeSite() },
        { op: 'create', site: makeSite({ name: '' }) },
      ],
    });
    expect(res.statusCode).toBe(422);
    const paths = res.json().error.fields.map((f: { path: string }) => f.path);
    expect(paths).toEqual(['items.0.site.code', 'items.2.site.name']);
  });

  it('refuses the same code twice in one batch (a revision goes in its own request)', async () => {
    const s = makeSite();
    const res = await batch(manager, {
      items: [
        { op: 'create', site: s },
        { op: 'create', site: { ...makeSite(), code: s.code } },
      ],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.fields.map((f: { path: string }) => f.path)).toEqual([
      'items.1.site.code',
    ]);
  });

  it('is for managers only, and never writes into another agency', async () => {
    expect((await batch(tech, { items: [{ op: 'create', site: makeSite() }] })).statusCode).toBe(
      403,
    );
    const mine = (await batch(manager, { items: [{ op: 'create', site: makeSite() }] })).json()
      .results[0].id as number;
    const res = await batch(neighbor, {
      items: [{ op: 'update', id: mine, site: { name: 'not yours' } }],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.fields[0].path).toBe('items.0.id');
    const other = await batch(manager, {
      items: [{ op: 'create', site: makeSite({ agency: 2 }) }],
    });
    expect(other.statusCode).toBe(422);
    expect(other.json().error.fields[0].path).toBe('items.0.site.agency');
  });

  it('replays a retried batch by its Idempotency-Key and never creates twice', async () => {
    const payload = { items: [{ op: 'create', site: makeSite() }] };
    const first = await batch(manager, payload, 'batch-key-1');
    const n = await sites();
    const again = await batch(manager, payload, 'batch-key-1');
    expect(again.statusCode).toBe(first.statusCode);
    expect(again.json()).toEqual(first.json());
    expect(await sites()).toBe(n);
  });

  it('refuses an empty batch and one over the limit with 422', async () => {
    expect((await batch(manager, { items: [] })).statusCode).toBe(422);
    const many = Array.from({ length: 1001 }, () => ({ op: 'create', site: makeSite() }));
    expect((await batch(manager, { items: many })).statusCode).toBe(422);
  });

  it('creates 1,000 sites in one request', async () => {
    const items = Array.from({ length: 1000 }, () => ({ op: 'create', site: makeSite() }));
    const before = await sites();
    const res = await batch(manager, { items });
    expect(res.statusCode).toBe(201);
    expect(new Set(res.json().results.map((r: { id: number }) => r.id)).size).toBe(1000);
    expect(await sites()).toBe(before + 1000);
  });

  it('is documented in the OpenAPI document as a Trapline extension', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const op = doc.paths['/v1/site/batch']?.post;
    expect(op?.summary).toMatch(/Trapline extension/);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['201', '403', '422']));
  });
});
