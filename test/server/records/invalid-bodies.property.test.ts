import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '#shared/schemas/error';
import { buildTestRecords, type TestRecords } from '../helpers/records-app';
import {
  PRECISION_ID,
  SACRAMENTO,
  SEX_ID,
  SPECIES_ID,
  errorOf,
  makeCollection,
  tableCounts,
} from './helpers/arthropod-fixtures';

/**
 * Property: whatever invalid body a create endpoint receives, it answers 4xx with the contract's
 * error body (422 with `fields`), never a 500, and writes nothing. Each generated body is a valid
 * one with one to three mutations, every one of which alone makes it invalid, or not an object.
 */

const RUNS = 1000;
const NONEXISTENT = 9_999_999;

let t: TestRecords;
let token: string;
let collectionId: number;
let poolId: number;

beforeAll(async () => {
  t = await buildTestRecords();
  token = await t.login('demo-manager');
  const c = await t.app.inject({
    method: 'POST',
    url: '/v1/arthropod/collection',
    headers: t.auth(token),
    payload: makeCollection({
      collection_date: '2026-07-14',
      arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 10 }],
    }),
  });
  collectionId = c.json().id;
  const p = await t.app.inject({
    method: 'POST',
    url: '/v1/arthropod/pool',
    headers: t.auth(token),
    payload: {
      collection: collectionId,
      species: SPECIES_ID.cxTarsalis,
      sex: SEX_ID.fMixed,
      num_count: 4,
    },
  });
  poolId = p.json().id;
}, 120_000);
afterAll(async () => t?.close());

const wrongType = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.boolean(),
  fc.constant([]),
  fc.constant({}),
  fc.constant({ id: 1 }),
);
const badId = fc.oneof(
  fc.constantFrom(0, -1, 1.5, 2 ** 31, Number.MAX_SAFE_INTEGER, NONEXISTENT),
  wrongType,
);
const badRequiredId = fc.oneof(badId, fc.constant(null));
const badCount = (min: number) =>
  fc.oneof(
    fc.integer({ min: -1000, max: min - 1 }),
    fc.constantFrom(1.5, 2 ** 31),
    wrongType,
    fc.constant(null),
  );
const badDate = fc.oneof(
  fc.constantFrom(
    'yesterday',
    '2026-02-30',
    '',
    '2026-13-01',
    '14/07/2026',
    '2026-07-14T25:00:00Z',
    '2026-07-14T06:30:00',
  ),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
);
const badBool = fc.oneof(fc.constantFrom('yes', 'true', 1, 0), fc.constant([]));
const badText = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant({}),
  fc.constant('x'.repeat(10_001)),
);
const unknownKey = fc.constantFrom(
  'colour',
  'id',
  'add_date',
  'updated',
  'collection_id',
  'Trap',
  'deactive_date',
  '__proto__x',
);

type Mutation = { drop?: string; set?: [string, unknown] };

/** One invalidating mutation of a body: drop a required field, set a field to a bad value, or add an unknown field. */
function mutations(
  required: string[],
  bad: Record<string, fc.Arbitrary<unknown>>,
  rules: Mutation[],
): fc.Arbitrary<Mutation> {
  return fc.oneof(
    // Well-formed bodies that break a rule of the service rather than the schema.
    fc.constantFrom(...rules),
    fc.constantFrom(...required).map((drop) => ({ drop })),
    fc
      .constantFrom(...Object.keys(bad))
      .chain((k) => bad[k].map((v) => ({ set: [k, v] as [string, unknown] }))),
    fc.tuple(unknownKey, fc.jsonValue()).map(([k, v]) => ({ set: [k, v] as [string, unknown] })),
  );
}

function invalidBodies(
  valid: () => Record<string, unknown>,
  required: string[],
  bad: Record<string, fc.Arbitrary<unknown>>,
  rules: Mutation[],
) {
  // Mostly one mutation, so that bodies which pass parsing reach the lookup and rule checks.
  const some = fc.oneof(
    { weight: 3, arbitrary: mutations(required, bad, rules).map((m) => [m]) },
    {
      weight: 1,
      arbitrary: fc.array(mutations(required, bad, rules), { minLength: 2, maxLength: 3 }),
    },
  );
  const mutated = some.map((ms) => {
    const body: Record<string, unknown> = valid();
    for (const m of ms) {
      if (m.drop) delete body[m.drop];
      if (m.set) body[m.set[0]] = m.set[1];
    }
    return body as unknown;
  });
  const notAnObject = fc.oneof(
    fc.array(fc.jsonValue(), { maxLength: 3 }),
    fc.integer(),
    fc.string(),
    fc.constant(null),
    fc.boolean(),
  );
  return fc.oneof({ weight: 12, arbitrary: mutated }, { weight: 1, arbitrary: notAnObject });
}

async function everyAnswerIsAClean4xx(
  url: string,
  bodies: fc.Arbitrary<unknown>,
  codesReached: string[],
) {
  const before = await tableCounts(t);
  const seen = new Set<string>();
  await fc.assert(
    fc.asyncProperty(bodies, async (body) => {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { ...t.auth(token), 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      seen.add(`${res.statusCode} ${res.json().error?.code}`);
      expect(res.statusCode, `${JSON.stringify(body)} → ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${JSON.stringify(body)} → ${res.body}`).toBeLessThan(500);
      expect(errorBody.safeParse(res.json()).success).toBe(true);
      if (res.statusCode === 422) expect(errorOf(res).fields?.length ?? 0).toBeGreaterThan(0);
    }),
    { numRuns: RUNS },
  );
  expect(await tableCounts(t)).toEqual(before);
  // The generator reaches past parsing: lookup and rule checks answer too, not only zod.
  expect([...seen].sort()).toEqual(expect.arrayContaining(codesReached));
}

describe('create endpoints under generated invalid bodies', () => {
  it(`POST /v1/arthropod/collection answers ${RUNS} invalid bodies with a 4xx and writes nothing`, async () => {
    const location = (coordinates: unknown, precision: unknown = PRECISION_ID.gps) => ({
      shape: { type: 'Point', coordinates },
      coordinate_precision: precision,
    });
    await everyAnswerIsAClean4xx(
      '/v1/arthropod/collection',
      invalidBodies(
        () =>
          makeCollection({
            lures: [1],
            arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fUnfed, num_count: 3 }],
          }),
        ['collection_date', 'num_trap', 'trap', 'trap_nights', 'location'],
        {
          collection_date: badDate,
          num_trap: badCount(1),
          trap_nights: badCount(1),
          trap: badRequiredId,
          site: badId,
          collection_num: fc.oneof(fc.constantFrom(0, -5, 2.5, 2 ** 31), wrongType),
          surv_year: fc.oneof(fc.constantFrom(1899, 2201, 2026.5), wrongType),
          collection_date_date_only: badBool,
          trap_problem_bit: badBool,
          comments: badText,
          identified_by: fc.oneof(badText, fc.constant('y'.repeat(201))),
          agency: fc.constantFrom(2, 3, 0, 'one'),
          lures: fc.oneof(
            fc.constant([NONEXISTENT]),
            fc.constant(['a']),
            fc.constant([2 ** 31]),
            wrongType.filter((v) => !Array.isArray(v)),
          ),
          location: fc.oneof(
            fc.constant(location([38.58, -121.49 - 100])),
            fc.constant(location([200, 10])),
            fc.constant(location(SACRAMENTO, NONEXISTENT)),
            fc.constant(location(SACRAMENTO, null)),
            fc.constant({
              shape: { type: 'Polygon', coordinates: SACRAMENTO },
              coordinate_precision: 1,
            }),
            fc.constant({ shape: { type: 'Point', coordinates: [1] }, coordinate_precision: 1 }),
            fc.constant({
              shape: { type: 'Point', coordinates: SACRAMENTO },
              coordinate_precision: 1,
              extra: 1,
            }),
            fc.constant(null),
            wrongType,
          ),
          arthropods: fc.oneof(
            fc.constant([{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed }]),
            fc.constant([{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: -1 }]),
            fc.constant([{ species: NONEXISTENT, sex: SEX_ID.fMixed, num_count: 1 }]),
            fc.constant([{ species: 1, sex: 2 ** 31, num_count: 1 }]),
            fc.constant([
              { species: 1, sex: SEX_ID.fMixed, num_count: 1 },
              { species: 1, sex: SEX_ID.fGravid, num_count: 1 },
            ]),
            fc.constant([
              { species: 1, sex: SEX_ID.male, num_count: 1 },
              { species: 1, sex: SEX_ID.male, num_count: 2 },
            ]),
            fc.constant([{ species: 1, sex: 1, num_count: 1, colour: 'red' }]),
            wrongType.filter((v) => !Array.isArray(v)),
          ),
        },
        [
          { drop: 'location' },
          {
            set: [
              'arthropods',
              [
                { species: 1, sex: SEX_ID.fMixed, num_count: 1 },
                { species: 1, sex: SEX_ID.fUnfed, num_count: 1 },
              ],
            ],
          },
          { set: ['trap', NONEXISTENT] },
          { set: ['agency', 2] },
        ],
      ),
      [
        '403 forbidden',
        '422 validation_failed',
        '422 location_required',
        '422 mixed_condition_conflict',
      ],
    );
  }, 600_000);

  it(`POST /v1/arthropod/pool answers ${RUNS} invalid bodies with a 4xx and writes nothing`, async () => {
    await everyAnswerIsAClean4xx(
      '/v1/arthropod/pool',
      invalidBodies(
        () => ({
          collection: collectionId,
          species: SPECIES_ID.cxTarsalis,
          sex: SEX_ID.fMixed,
          num_count: 2,
        }),
        ['collection', 'species', 'sex', 'num_count'],
        {
          collection: badRequiredId,
          species: badRequiredId,
          sex: badRequiredId,
          num_count: fc.oneof(badCount(1), fc.constantFrom(7, 100, 2 ** 31 - 1)),
          pool_num: fc.oneof(fc.constantFrom(0, -1, 1.5, 2 ** 31), wrongType),
          primary_source_bit: badBool,
          comments: badText,
          site: fc.oneof(fc.constantFrom(0, -1, 1.5), wrongType),
          collection_date: badDate.filter((v) => v !== null),
          trap: fc.oneof(fc.constantFrom(0, -1, 1.5), wrongType),
          agency: fc.constantFrom(2, 3, 0, 'one'),
        },
        [
          { set: ['num_count', 11] },
          { set: ['sex', SEX_ID.male] },
          { set: ['collection', NONEXISTENT] },
          { set: ['agency', 2] },
        ],
      ),
      ['403 forbidden', '422 validation_failed', '422 pool_count_exceeds_abundance'],
    );
  }, 600_000);

  it(`POST /v1/arthropod/pool/test answers ${RUNS} invalid bodies with a 4xx and writes nothing`, async () => {
    await everyAnswerIsAClean4xx(
      '/v1/arthropod/pool/test',
      invalidBodies(
        () => ({
          pool: poolId,
          method: 1,
          target: 1,
          status: 2,
          test_date: '2026-07-20',
          test_agency: 3,
        }),
        ['pool', 'method', 'target', 'status', 'test_date', 'test_agency'],
        {
          pool: badRequiredId,
          method: badRequiredId,
          target: badRequiredId,
          status: badRequiredId,
          test_agency: badRequiredId,
          test_date: fc.oneof(
            badDate,
            // Before the 2026-07-14 collection in every zone: even at UTC+14, 09:59:59Z is
            // still the 13th (23:59:59Z would be the 14th there, and is accepted).
            fc.constantFrom('2026-07-13', '2020-01-01', '2026-07-13T09:59:59Z'),
          ),
          value: fc.oneof(fc.string({ maxLength: 4 }), fc.boolean(), fc.constant({})),
          comments: badText,
          agency: fc.constantFrom(2, 3, 0, 'one'),
        },
        [
          { set: ['test_date', '2026-07-13'] },
          { set: ['method', NONEXISTENT] },
          { set: ['test_agency', NONEXISTENT] },
          { set: ['agency', 2] },
        ],
      ),
      ['403 forbidden', '422 validation_failed', '422 test_before_collection'],
    );
  }, 600_000);
});
