import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '#shared/schemas/error';
import { buildTestRecords, type TestRecords } from '../../helpers/records-app';
import { makeCollection } from '../helpers/arthropod-fixtures';

/** Issue 2 gap 3: bodies nested so deep that a recursive walk would overflow the stack. */

let t: TestRecords;
let token: string;

beforeAll(async () => {
  t = await buildTestRecords();
  token = await t.login('demo-manager');
}, 60_000);
afterAll(async () => t?.close());

/** `{"comments": [[[…]]]}` with `depth` nested arrays, as raw JSON text. */
const deepBody = (depth: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ ...extra, comments: 'DEEP' }).replace(
    '"DEEP"',
    `${'['.repeat(depth)}${']'.repeat(depth)}`,
  );

const send = (method: 'POST' | 'PUT', url: string, payload: string, key?: string) =>
  t.app.inject({
    method,
    url,
    headers: {
      ...t.auth(token),
      'content-type': 'application/json',
      ...(key ? { 'idempotency-key': key } : {}),
    },
    payload,
  });

describe('a body nested 10,000 levels deep', () => {
  it.each([
    ['POST', '/v1/arthropod/collection', undefined],
    ['POST', '/v1/arthropod/collection', 'deep-key-1'],
    ['POST', '/v1/site', undefined],
    ['POST', '/v1/arthropod/pool', undefined],
    ['POST', '/v1/arthropod/pool/test', undefined],
    ['PUT', '/v1/arthropod/collection/1', undefined],
  ] as const)(
    'answers 400 bad_request with the error body on %s %s (idempotency key %s)',
    async (method, url, key) => {
      const res = await send(method, url, deepBody(10_000, makeCollection()), key);
      expect(res.statusCode, res.body).toBe(400);
      expect(errorBody.parse(res.json()).error).toMatchObject({
        code: 'bad_request',
        message: expect.stringMatching(/nested/i),
      });
    },
  );

  it('still judges an ordinarily nested body by its fields (422, not 400)', async () => {
    const res = await send('POST', '/v1/arthropod/collection', deepBody(10, makeCollection()));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error.fields[0].path).toBe('comments');
  });
});
