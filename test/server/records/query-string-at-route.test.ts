import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useErrorHandler } from '../../../src/server/http/error-handler';
import { useRouteSchemas } from '../../../src/server/records/route-validation';
import { LIST_QUERY } from '../../../src/server/records/openapi/route-schemas';
import {
  listQuerystring,
  readQueryString,
} from '../../../src/server/records/list/list-querystring';
import type { ListSpec } from '../../../src/server/records/list';
import { buildTestRecords, TEST_PASSWORD, type TestRecords } from '../helpers/records-app';

/**
 * The records service reads a query string once, with the shared codec, and validates it with the
 * route's schema in Fastify's validation step: what a route's schema refuses never reaches its
 * handler, and the answer is the contract's (400 for a string it cannot read, 422 listing every
 * failing parameter).
 */

const TRAPS: ListSpec = {
  fields: {
    id: { sql: 't.id', type: 'int' },
    name: { sql: 't.name', type: 'text' },
  },
};

/** A bare app with the service's query-string reading, and a list route that counts its calls. */
async function listApp() {
  const app = Fastify({
    routerOptions: { querystringParser: readQueryString },
  });
  useErrorHandler(app, 'Something went wrong on the records service');
  useRouteSchemas(app);
  const handled: unknown[] = [];
  app.get('/traps', { schema: { querystring: listQuerystring(LIST_QUERY, TRAPS) } }, (req) => {
    handled.push(req.query);
    return { rows: [], count: 0 };
  });
  app.get(
    '/lure',
    { schema: { querystring: z.object({ weight: z.string().optional() }) } },
    (req) => req.query,
  );
  await app.ready();
  return { app, handled };
}

describe("a list route's query-string schema", () => {
  it('refuses, before the handler, every parameter its list does not take, in one 422', async () => {
    const { app, handled } = await listApp();
    const res = await app.inject({
      url: '/traps?query[colour]=1&sort=nope&pageSize=5000&fields[]=weight',
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error.code).toBe('validation_failed');
    expect(
      res
        .json()
        .error.fields.map((f: { path: string }) => f.path)
        .sort(),
    ).toEqual(['fields', 'pageSize', 'query.colour', 'sort']);
    expect(handled).toEqual([]);
    await app.close();
  });

  it('answers 400 bad_request for a query string the codec cannot read, before the handler', async () => {
    const { app, handled } = await listApp();
    for (const url of ['/traps?name=%zz', '/traps?query[name]=a&query[name][$gt]=b']) {
      const res = await app.inject({ url });
      expect(res.statusCode, `${url} ${res.body}`).toBe(400);
      expect(res.json().error.code).toBe('bad_request');
    }
    expect(handled).toEqual([]);
    await app.close();
  });

  it('hands the handler the decoded tree of a query string it accepts', async () => {
    const { app, handled } = await listApp();
    const res = await app.inject({ url: '/traps?query[id][$in][0]=4&sort=-name&pageSize=10' });
    expect(res.statusCode, res.body).toBe(200);
    expect(handled).toEqual([{ query: { id: { $in: ['4'] } }, sort: '-name', pageSize: '10' }]);
    await app.close();
  });

  it('reads any other query-string schema with zod: a name given twice is refused, naming it', async () => {
    const { app } = await listApp();
    const res = await app.inject({ url: '/lure?weight=1&weight=2' });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error.fields).toEqual([expect.objectContaining({ path: 'weight' })]);
    await app.close();
  });
});

describe('POST /login with its credentials in the query string', () => {
  let t: TestRecords;
  beforeAll(async () => {
    t = await buildTestRecords();
  }, 60_000);
  afterAll(async () => t?.close());

  it('refuses a username given twice (which one was meant?) instead of taking the last', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/login?username=demo-manager&username=demo-tech&password=${encodeURIComponent(TEST_PASSWORD)}`,
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error).toMatchObject({
      code: 'validation_failed',
      fields: [expect.objectContaining({ path: 'username' })],
    });
  });

  it('answers 400 bad_request for a query string that cannot be read', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/login?username=%E0%A4%A',
      payload: { username: 'demo-tech', password: TEST_PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.code).toBe('bad_request');
  });

  it('still signs in with the credentials given once', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/login?username=demo-tech&password=${encodeURIComponent(TEST_PASSWORD)}`,
    });
    expect(res.statusCode, res.body).toBe(200);
  });
});
