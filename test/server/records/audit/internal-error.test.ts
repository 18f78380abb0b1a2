import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecords, type TestRecords } from '../../helpers/records-app';
import { makeCollection } from '../helpers/arthropod-fixtures';

/** Issue 2 gap 8, contract §2: anything unexpected is a 500 `internal`, without stack or SQL. */

let t: TestRecords;
let token: string;

beforeAll(async () => {
  t = await buildTestRecords();
  token = await t.login('demo-manager');
  // The database goes away under the running service: every query now fails unexpectedly.
  await t.db.close();
}, 60_000);
afterAll(async () => t?.app.close());

describe('an unexpected failure', () => {
  it.each([
    ['GET', '/v1/arthropod/collection'],
    ['POST', '/v1/arthropod/collection'],
    ['GET', '/v1/site/1'],
  ] as const)('answers %s %s with 500 internal and no stack or SQL', async (method, url) => {
    const res = await t.app.inject({
      method,
      url,
      headers: t.auth(token),
      ...(method === 'POST' ? { payload: makeCollection() } : {}),
    });
    expect(res.statusCode).toBe(500);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json();
    expect(body).toEqual({ error: { code: 'internal', message: expect.any(String) } });
    expect(body.error.message.length).toBeGreaterThan(0);
    expect(res.body).not.toMatch(/\bat .+:\d+:\d+|stack|select |insert |from |closed|PGlite/i);
  });
});
