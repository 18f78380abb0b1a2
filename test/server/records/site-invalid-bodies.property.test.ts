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

const valid = fc.record({
  code: fc.stringMatching(/^\d{6}$/),
  name: fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim().length > 0),
  coordinate_precision: fc.integer({ min: 1, max: 6 }),
  shape: fc.record({
    type: fc.constant('Point'),
    coordinates: fc.tuple(
      fc.double({ min: -180, max: 180, noNaN: true }),
      fc.double({ min: -90, max: 90, noNaN: true }),
    ),
  }),
});
type Body = Record<string, unknown>;

/** Optional fields accept null (it clears them), so these exclude null. */
const notAString = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.object({ maxDepth: 1 }),
);
const notANumber = fc.oneof(
  fc.string(),
  fc.boolean(),
  fc.object({ maxDepth: 1 }),
  fc.constant(1.5),
  fc.constant(-3),
  fc.constant(0),
);

/** Each mutation alone makes a valid body invalid. */
const mutations: fc.Arbitrary<(b: Body) => unknown>[] = [
  fc.constantFrom('code', 'name', 'coordinate_precision', 'shape').map((k) => (b: Body) => {
    const { [k]: _gone, ...rest } = b;
    return rest;
  }),
  fc
    .oneof(
      notAString,
      fc.constant(null),
      fc.string().filter((s) => !/^\d{6}$/.test(s)),
    )
    .map((v) => (b: Body) => ({ ...b, code: v })),
  fc
    .oneof(
      notAString,
      fc.constant(null),
      fc.constant(''),
      fc.constant('   '),
      fc.constant('a'.repeat(201)),
    )
    .map((v) => (b: Body) => ({ ...b, name: v })),
  fc
    .oneof(notANumber, fc.constant(null))
    .map((v) => (b: Body) => ({ ...b, coordinate_precision: v })),
  fc
    .integer({ min: 7, max: 1_000_000 })
    .map((v) => (b: Body) => ({ ...b, coordinate_precision: v })),
  fc
    .tuple(fc.double({ noNaN: false }), fc.double({ noNaN: false }))
    .filter(([lon, lat]) => !(lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90))
    .map((c) => (b: Body) => ({ ...b, shape: { type: 'Point', coordinates: c } })),
  fc
    .constantFrom('Polygon', 'LineString', 'point', '')
    .map((type) => (b: Body) => ({ ...b, shape: { ...(b.shape as Body), type } })),
  fc
    .oneof(notAString, fc.constant([1]), fc.constant([1, 2, 3]))
    .map((coordinates) => (b: Body) => ({ ...b, shape: { type: 'Point', coordinates } })),
  fc
    .string({ minLength: 1, maxLength: 12 })
    .filter(
      (k) =>
        ![
          'code',
          'name',
          'coordinate_precision',
          'shape',
          'active_date',
          'deactive_date',
          'address_1',
          'address_2',
          'city',
          'comments',
          'elevation',
          'postal_code',
          'region',
          'revision_comments',
          'site_population',
          'site_land_usage',
          'site_land_usage_custom',
          'agency',
          'user',
          '__proto__',
        ].includes(k),
    )
    .map((k) => (b: Body) => ({ ...b, [k]: 1 })),
  fc
    .constantFrom('id', 'add_date', 'updated', 'delete_date')
    .map((k) => (b: Body) => ({ ...b, [k]: k === 'id' ? 5 : '2026-01-01' })),
  fc
    .oneof(
      fc.string().filter((s) => !/^\d{5}$/.test(s)),
      notAString,
    )
    .map((v) => (b: Body) => ({ ...b, postal_code: v })),
  fc
    .oneof(
      fc.constantFrom('yesterday', '2026-13-01', '2026-02-30T25:00:00Z', '14/07/2026'),
      fc.integer(),
    )
    .map((v) => (b: Body) => ({ ...b, active_date: v })),
  fc
    .oneof(
      fc.string().filter((s) => !['Suburban', 'Urban', 'Rural'].includes(s)),
      fc.integer(),
    )
    .map((v) => (b: Body) => ({ ...b, site_population: v })),
  fc
    .oneof(fc.string(), fc.boolean(), fc.constant('12.5'))
    .map((v) => (b: Body) => ({ ...b, elevation: v })),
  fc.integer({ min: 2, max: 3 }).map((agency) => (b: Body) => ({ ...b, agency })),
  fc
    .oneof(fc.constant([0]), fc.constant([999]), fc.constant(['x']), fc.constant('1,2'))
    .map((v) => (b: Body) => ({ ...b, site_land_usage: v })),
  fc
    .oneof(
      fc.constant(null),
      fc.integer(),
      fc.string(),
      fc.array(fc.anything(), { maxLength: 3 }),
      fc.boolean(),
    )
    .map((v) => () => v),
  // Valid for the schemas, refused by PostgreSQL: must still be a 422, never a 500.
  fc
    .constantFrom(2 ** 31, Number.MAX_SAFE_INTEGER)
    .map((v) => (b: Body) => ({ ...b, coordinate_precision: v })),
  fc
    .constantFrom(2 ** 31, Number.MAX_SAFE_INTEGER)
    .map((v) => (b: Body) => ({ ...b, region: v, site_land_usage: [1, v] })),
  fc
    .constantFrom('name', 'city', 'comments', 'address_1')
    .map((k) => (b: Body) => ({ ...b, [k]: 'Pond\u0000edge' })),
  fc
    .constantFrom('0000-01-01', '0000-06-30T12:00:00Z')
    .map((d) => (b: Body) => ({ ...b, active_date: d })),
  fc.constantFrom('{', '{"code":', '[1,', 'nul', '{"a":1}}').map((raw) => () => ({ __raw: raw })),
];

it('answers every one of 1000 generated invalid site bodies with a 4xx and the error body, and creates nothing', async () => {
  const before = (
    await t.db.query('select count(*)::int as n, coalesce(max(id), 0) as max from site')
  ).rows[0];
  let runs = 0;
  await fc.assert(
    fc.asyncProperty(
      valid,
      fc.array(fc.oneof(...mutations), { minLength: 1, maxLength: 3 }),
      async (body, muts) => {
        runs += 1;
        let payload: unknown = body;
        for (const m of muts)
          payload =
            typeof payload === 'object' &&
            payload !== null &&
            !Array.isArray(payload) &&
            !('__raw' in payload)
              ? m(payload as Body)
              : payload;
        const raw =
          typeof payload === 'object' && payload !== null && '__raw' in payload
            ? String((payload as { __raw: string }).__raw)
            : JSON.stringify(payload ?? null);
        const res = await t.app.inject({
          method: 'POST',
          url: '/v1/site',
          headers: { ...t.auth(token), 'content-type': 'application/json' },
          payload: raw,
        });
        expect(res.statusCode, raw).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, raw).toBeLessThan(500);
        expect(errorBody.safeParse(res.json()).success, raw).toBe(true);
      },
    ),
    { numRuns: 1000 },
  );
  expect(runs).toBeGreaterThanOrEqual(1000);
  const after = (
    await t.db.query('select count(*)::int as n, coalesce(max(id), 0) as max from site')
  ).rows[0];
  expect(after).toEqual(before);
}, 240_000);
