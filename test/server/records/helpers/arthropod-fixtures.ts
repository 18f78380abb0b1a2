import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildTestRecords, type TestRecords } from '../../helpers/records-app';
import {
  PRECISION_ID,
  SEX_ID,
  SPECIES_ID,
  TRAP_ID,
} from '../../../../src/server/records/seed/lookup-data';

export { PRECISION_ID, SEX_ID, SPECIES_ID, TRAP_ID };

/** Sacramento, [longitude, latitude]. */
export const SACRAMENTO: [number, number] = [-121.49, 38.58];

/** A collection body with every required field; `over` replaces or adds fields. */
export function makeCollection(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    collection_date: '2026-07-14',
    num_trap: 1,
    trap: TRAP_ID.co2,
    trap_nights: 1,
    location: {
      shape: { type: 'Point', coordinates: SACRAMENTO },
      coordinate_precision: PRECISION_ID.gps,
    },
    ...over,
  };
}

/**
 * A collection at `site` (its place taken from the site) with a lure and three abundance rows,
 * two of one species and two F-Mixed: what a trap pickup typically sends. The statement count
 * (create-statements.test.ts) and the records-vs-bare bench send this same body.
 */
export const collectionAtSite = (site: number) => ({
  collection_date: '2026-07-14T06:30:00-07:00',
  num_trap: 1,
  trap: TRAP_ID.co2,
  trap_nights: 1,
  site,
  lures: [1],
  arthropods: [
    { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 42 },
    { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.male, num_count: 7 },
    { species: SPECIES_ID.cxPipiens, sex: SEX_ID.fMixed, num_count: 12 },
  ],
});

export type Api = {
  get(url: string, token: string): Promise<LightMyRequestResponse>;
  post(url: string, token: string, payload: unknown): Promise<LightMyRequestResponse>;
  put(url: string, token: string, payload: unknown): Promise<LightMyRequestResponse>;
  del(url: string, token: string): Promise<LightMyRequestResponse>;
};

/** Thin request helpers over `app.inject` with a bearer token. */
export function api(t: TestRecords): Api {
  const send = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    token: string,
    payload?: unknown,
  ) =>
    t.app.inject({
      method,
      url,
      headers: t.auth(token),
      ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
    });
  return {
    get: (url, token) => send('GET', url, token),
    post: (url, token, payload) => send('POST', url, token, payload),
    put: (url, token, payload) => send('PUT', url, token, payload),
    del: (url, token) => send('DELETE', url, token),
  };
}

export type SignedInRecords = { t: TestRecords; http: Api; token: string };

/**
 * A test file's records service (buildTestRecords, built in beforeAll and closed in afterAll),
 * its request helpers and `username`'s token. Its fields are set once beforeAll has run: read
 * them in tests and hooks.
 */
export function signedInRecords(username = 'demo-tech'): SignedInRecords {
  const file = {} as SignedInRecords;
  beforeAll(async () => {
    file.t = await buildTestRecords();
    file.http = api(file.t);
    file.token = await file.t.login(username);
  });
  afterAll(async () => file.t?.close());
  return file;
}

let siteCodeSeq = 100000;

/** Inserts a live site of an agency straight into the table (the site routes are not under test here). */
export async function insertSite(
  t: TestRecords,
  agency: number,
  point: [number, number] = [-121.5, 38.6],
  precision: number = PRECISION_ID.map,
): Promise<number> {
  const { rows } = await t.db.query<{ id: number }>(
    `insert into site (agency, code, name, coordinate_precision, lon, lat) values ($1, $2, $3, $4, $5, $6) returning id`,
    [agency, String(++siteCodeSeq), `Test site ${siteCodeSeq}`, precision, point[0], point[1]],
  );
  return rows[0].id;
}

export async function zeroSiteOf(t: TestRecords, agency: number): Promise<number> {
  const { rows } = await t.db.query<{ id: number }>(
    `select id from site where agency = $1 and code = '000000'`,
    [agency],
  );
  return rows[0].id;
}

/** Row counts of every table these routes write, to prove a rejected request wrote nothing. */
export async function tableCounts(t: TestRecords): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of ['collection', 'abundance', 'record_lure', 'location', 'pool', 'pool_test']) {
    const { rows } = await t.db.query<{ n: number }>(`select count(*)::int as n from ${table}`);
    out[table] = Number(rows[0].n);
  }
  return out;
}

/** Ensures an error answer has the contract's body: `{error: {code, message, fields?}}`. */
export function errorOf(res: LightMyRequestResponse): {
  code: string;
  message: string;
  fields?: { path: string; message: string }[];
} {
  const body = res.json() as {
    error: { code: string; message: string; fields?: { path: string; message: string }[] };
  };
  return body.error;
}
