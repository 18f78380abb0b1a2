import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestRecords, type TestRecords } from '../helpers/records-app';
import { errorBody } from '#shared/schemas/error';

let t: TestRecords;
let token: string;

beforeAll(async () => {
  t = await buildTestRecords();
  token = await t.login('demo-tech');
});
afterAll(() => t.close());

const FIELDS = [
  'id',
  'code',
  'name',
  'elevation',
  'active_date',
  'region',
  'nope',
  'shape',
  'agency',
  'user',
];
const OPS = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$between', '$regex', ''];
const VALUES = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.integer().map(String),
  fc.constantFrom(
    '2026-07-14',
    '0000-01-01',
    '99999999999999999999',
    '%00',
    '%ZZ',
    '1e400',
    'null',
    '\u0000',
    "'; drop table site; --",
  ),
);
const param = fc.oneof(
  fc
    .tuple(fc.constantFrom(...FIELDS), fc.constantFrom(...OPS), fc.option(fc.nat(3)), VALUES)
    .map(
      ([f, op, idx, v]) =>
        `query[${f}]${op ? `[${op}]` : ''}${idx === null ? '' : `[${idx}]`}=${encodeURIComponent(v)}`,
    ),
  fc
    .tuple(
      fc.constantFrom(
        'page',
        'pageSize',
        'page_size',
        'sort',
        'search',
        'fields[]',
        'populate[]',
        'searchFields[]',
        'populate',
        'sort[name]',
      ),
      VALUES,
    )
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`),
  fc.string({ maxLength: 20 }),
);

it('answers 1000 generated list queries with 200 or a 4xx error body, never a 500', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(param, { minLength: 1, maxLength: 6 }), async (params) => {
      const url = `/v1/site?${params.join('&')}`;
      const res = await t.app.inject({ method: 'GET', url, headers: t.auth(token) });
      expect(res.statusCode, url).toBeLessThan(500);
      if (res.statusCode === 200) {
        expect(res.json(), url).toMatchObject({
          rows: expect.any(Array),
          count: expect.any(Number),
        });
      } else {
        expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
        expect(errorBody.safeParse(res.json()).success, url).toBe(true);
      }
    }),
    { numRuns: 1000 },
  );
}, 240_000);
