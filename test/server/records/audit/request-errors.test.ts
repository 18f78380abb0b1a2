import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '#shared/schemas/error';
import { buildTestRecords, type TestRecords } from '../../helpers/records-app';
import { makeSite } from '../factories/make-site';
import { api, errorOf, type Api } from '../helpers/arthropod-fixtures';

/** Issue 2 gaps 9-12: request errors answered the contract's way (§2, §4). */

let t: TestRecords;
let http: Api;
let manager: string;
let siteId: number;

beforeAll(async () => {
  t = await buildTestRecords();
  http = api(t);
  manager = await t.login('demo-manager');
  const s = await http.post('/v1/site', manager, makeSite({ code: '292001', city: 'Davis' }));
  expect(s.statusCode, s.body).toBe(201);
  siteId = s.json().id;
}, 60_000);
afterAll(async () => t?.close());

describe('GET /v1/site/{id} with fields[]', () => {
  it('returns only the fields asked, id first', async () => {
    const res = await http.get(`/v1/site/${siteId}?fields[]=name&fields[]=city`, manager);
    expect(res.statusCode, res.body).toBe(200);
    expect(Object.keys(res.json())).toEqual(['id', 'name', 'city']);
    expect(res.json().city).toBe('Davis');
  });

  it('answers 422 naming fields for an unknown field', async () => {
    const res = await http.get(`/v1/site/${siteId}?fields[]=colour`, manager);
    expect(res.statusCode, res.body).toBe(422);
    expect(errorOf(res).fields).toEqual([
      { path: 'fields', message: expect.stringContaining('colour') },
    ]);
  });

  it('still populates as asked', async () => {
    const res = await http.get(`/v1/site/${siteId}?populate[]=agency&fields[]=agency`, manager);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().agency).toMatchObject({ id: 1 });
  });
});

describe('an Idempotency-Key reused for another body', () => {
  it('answers 422 idempotency_key_reused naming the header in fields', async () => {
    const send = (body: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/site',
        headers: { ...t.auth(manager), 'idempotency-key': 'reused-key-audit-10' },
        payload: body,
      });
    const body = makeSite();
    expect((await send(body)).statusCode).toBe(201);
    const res = await send({ ...body, name: 'Something else' });
    expect(res.statusCode).toBe(422);
    expect(errorBody.safeParse(res.json()).success).toBe(true);
    expect(errorOf(res)).toMatchObject({
      code: 'idempotency_key_reused',
      fields: [{ path: 'Idempotency-Key', message: expect.any(String) }],
    });
  });
});

describe('list parameters with several problems', () => {
  it.each([
    '/v1/site',
    '/v1/arthropod/collection',
    '/v1/arthropod/pool',
    '/v1/arthropod/pool/test',
  ])('%s answers one 422 listing every failing parameter', async (url) => {
    const res = await http.get(`${url}?query[colour]=1&sort=nope&pageSize=5000`, manager);
    expect(res.statusCode, res.body).toBe(422);
    expect(
      errorOf(res)
        .fields?.map((f) => f.path)
        .sort(),
    ).toEqual(['pageSize', 'query.colour', 'sort']);
  });
});

describe('DELETE /v1/agency/token/{id} with a non-id', () => {
  it('answers 404 not_found like every other {id} path', async () => {
    for (const url of ['/v1/agency/token/abc', '/v1/site/abc', '/v1/arthropod/pool/abc']) {
      const res = await http.del(url, manager);
      expect(res.statusCode, `${url} ${res.body}`).toBe(404);
      expect(errorOf(res).code).toBe('not_found');
    }
  });
});
