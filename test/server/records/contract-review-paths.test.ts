import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '#shared/schemas/error';
import { buildTestRecords, type TestRecords } from '../helpers/records-app';

/**
 * Contract review (§2): a path the router itself cannot read is answered with the contract's
 * error body, like every other refused request, not Fastify's own
 * `{"error":"Bad Request","code":"FST_ERR_BAD_URL",…}`.
 */

let t: TestRecords;
let token: string;

beforeAll(async () => {
  t = await buildTestRecords();
  token = await t.login('demo-manager');
}, 60_000);
afterAll(async () => t?.close());

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: t.auth(token) });

describe('a path the router cannot read', () => {
  it('answers 400 bad_request with the error body for a malformed %-escape in the path', async () => {
    for (const url of ['/v1/site/%E0', '/v1/arthropod/pool/%zz', '/v1/arthropod/collection/1%']) {
      const res = await get(url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(errorBody.safeParse(res.json()).success, res.body).toBe(true);
      expect(res.json().error.code).toBe('bad_request');
    }
  });

  it('answers 404 not_found with the error body for an id longer than any record’s', async () => {
    const res = await get(`/v1/site/${'9'.repeat(120)}`);
    expect(res.statusCode, res.body).toBe(404);
    expect(errorBody.safeParse(res.json()).success, res.body).toBe(true);
    expect(res.json().error.code).toBe('not_found');
  });

  it('still asks for a token first on a /v1 path it cannot read', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/site/%E0' });
    expect([400, 401]).toContain(res.statusCode);
    expect(errorBody.safeParse(res.json()).success, res.body).toBe(true);
  });
});
