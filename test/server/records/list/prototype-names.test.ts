import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../../../../src/server/http/http-error';
import { parseListQuery, type ListSpec } from '../../../../src/server/records/list';
import { SITE_LIST } from '../../../../src/server/records/sites/site-list-spec';
import { COLLECTION_LIST } from '../../../../src/server/records/collections/list-collections';
import { POOL_LIST } from '../../../../src/server/records/pools/list-pools';
import { POOL_TEST_LIST } from '../../../../src/server/records/pool-tests/list-pool-tests';
import { buildTestRecords, type TestRecords } from '../../helpers/records-app';

/**
 * Names every plain JavaScript object answers to (its prototype's members). A list that looked
 * a field up with `spec.fields[name]` found `Object.prototype.constructor` for
 * `query[constructor]`, built SQL from `undefined` and answered 500 (issue 9, D5). Each such
 * name is an unknown field: 422 naming the parameter, decided before any SQL.
 */
const PROTOTYPE_NAMES = [
  'constructor',
  'toString',
  '__proto__',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__lookupGetter__',
];

/** Each parameter shape that takes a field (or operator) name, with the path the 422 names. */
const PLACES: { param: (name: string) => string; path: (name: string) => string }[] = [
  { param: (n) => `query[${n}]=1`, path: (n) => `query.${n}` },
  { param: (n) => `query[${n}][$eq]=1`, path: (n) => `query.${n}` },
  { param: (n) => `query[${n}][0]=1&query[${n}][1]=2`, path: (n) => `query.${n}` },
  { param: (n) => `query[id][${n}]=1`, path: (n) => `query.id.${n}` },
  { param: (n) => `sort=${n}`, path: () => 'sort' },
  { param: (n) => `sort=-${n}`, path: () => 'sort' },
  { param: (n) => `sort=id,${n}`, path: () => 'sort' },
  { param: (n) => `sort[${n}]=1`, path: () => 'sort' },
  { param: (n) => `fields[]=${n}`, path: () => 'fields' },
  { param: (n) => `fields=id,${n}`, path: () => 'fields' },
  { param: (n) => `populate[]=${n}`, path: () => 'populate' },
  { param: (n) => `search=a&searchFields[]=${n}`, path: () => 'searchFields' },
];

const CASES = PROTOTYPE_NAMES.flatMap((name) =>
  PLACES.map((place) => ({ name, qs: place.param(name), path: place.path(name) })),
);

const SPECS: [string, ListSpec][] = [
  ['site', SITE_LIST],
  ['collection', COLLECTION_LIST],
  ['pool', POOL_LIST],
  ['pool test', POOL_TEST_LIST],
];

describe('parseListQuery refuses prototype member names without building SQL', () => {
  for (const [resource, spec] of SPECS) {
    it(`${resource}: every such name in every place → 422 naming the parameter`, () => {
      for (const { qs, path } of CASES) {
        let error: unknown = null;
        try {
          parseListQuery(`?${qs}`, spec);
        } catch (err) {
          error = err;
        }
        expect(error, qs).toBeInstanceOf(HttpError);
        const api = error as HttpError;
        expect([api.status, api.code], qs).toEqual([422, 'validation_failed']);
        expect(
          api.fields?.map((f) => f.path),
          qs,
        ).toContain(path);
      }
    });
  }
});

describe('list endpoints answer such names with 422, never 500', () => {
  let t: TestRecords;
  let token: string;
  beforeAll(async () => {
    t = await buildTestRecords();
    token = await t.login('demo-tech');
  }, 180_000);
  afterAll(async () => t?.close());

  const get = (url: string, qs: string) =>
    t.app.inject({ method: 'GET', url: `${url}?${qs}`, headers: t.auth(token) });
  /** A contract 422 whose fields name `path`, with no SQL in the answer. */
  function expectRefusal(res: LightMyRequestResponse, qs: string, path: string) {
    expect(res.statusCode, `${qs}: ${res.body}`).toBe(422);
    const body = res.json() as { error: { code: string; fields: { path: string }[] } };
    expect(body.error.code, qs).toBe('validation_failed');
    expect(
      body.error.fields.map((f) => f.path),
      qs,
    ).toContain(path);
    expect(res.body, qs).not.toMatch(/select |from |where /i);
  }

  const LISTS = [
    '/v1/site',
    '/v1/arthropod/collection',
    '/v1/arthropod/pool',
    '/v1/arthropod/pool/test',
  ];
  for (const url of LISTS) {
    it(`GET ${url}`, async () => {
      for (const { qs, path } of CASES) expectRefusal(await get(url, qs), qs, path);
    });
  }

  it('GET /v1/arthropod/pool?type=<name>', async () => {
    for (const name of PROTOTYPE_NAMES)
      expectRefusal(await get('/v1/arthropod/pool', `type=${name}`), name, 'type');
  });

  // The lookup lists take only the paging parameters (and /v1/agency its populate[]); whatever
  // else they do with a name, they never fail on one, and a refusal names the parameter.
  const LOOKUPS = [
    '/v1/species',
    '/v1/sex',
    '/v1/trap',
    '/v1/lure',
    '/v1/coordinate-precision',
    '/v1/land-usage',
    '/v1/region',
    '/v1/agency',
    '/v1/test/method',
    '/v1/test/target',
    '/v1/test/status',
  ];
  for (const url of LOOKUPS) {
    it(`GET ${url}`, async () => {
      for (const { qs, path } of CASES) {
        const res = await get(url, qs);
        if (res.statusCode !== 200) expectRefusal(res, qs, path);
      }
      // populate[] is a field name the agency list checks itself.
      if (url === '/v1/agency') {
        for (const name of PROTOTYPE_NAMES) {
          expectRefusal(await get(url, `populate[]=${name}`), name, 'populate');
        }
      }
    });
  }
});
