/**
 * A create's answer is built from the values it wrote, not read back (create-collection.ts): it
 * must be exactly what the service then serves for that record. Bodies chosen to catch a value
 * the database would store differently from how it was sent: dates with offsets, sub-millisecond
 * digits and far-off years, coordinates with every bit of a double, text with NULs' neighbours
 * and astral characters, an explicit number, the Zero Site, a site's own place.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  PRECISION_ID,
  SEX_ID,
  SPECIES_ID,
  TRAP_ID,
  insertSite,
  makeCollection,
  signedInRecords,
  zeroSiteOf,
} from '../helpers/arthropod-fixtures';

const URL = '/v1/arthropod/collection';

const records = signedInRecords();
let site: number;
let zeroSite: number;

beforeAll(async () => {
  site = await insertSite(
    records.t,
    1,
    [-121.50000000000001, 38.599999999999994],
    PRECISION_ID.map,
  );
  zeroSite = await zeroSiteOf(records.t, 1);
});

const at = (coordinates: [number, number], coordinate_precision: number = PRECISION_ID.gps) => ({
  shape: { type: 'Point', coordinates },
  coordinate_precision,
});

const bodies: Array<[string, () => Record<string, unknown>]> = [
  ['a day only', () => makeCollection({ collection_date: '2026-07-14' })],
  [
    'a moment with an offset and sub-millisecond digits',
    () => makeCollection({ collection_date: '2026-07-14T23:59:59.9999-07:00' }),
  ],
  [
    'a date a thousand years ago',
    () => makeCollection({ collection_date: '1000-01-01T00:00:00Z' }),
  ],
  ['a date before time zones', () => makeCollection({ collection_date: '1850-03-01T12:00:00Z' })],
  [
    'coordinates with every bit of a double, and negative zero',
    () => makeCollection({ location: at([-0, 0.1 + 0.2]) }),
  ],
  [
    'the extremes of the earth',
    () => makeCollection({ location: at([-180, 89.99999999999999], PRECISION_ID.map) }),
  ],
  [
    'text of every width, a trap problem and a given number',
    () =>
      makeCollection({
        comments: '  Culex 🦟 près de l’étang\n\ttwo lines  ',
        identified_by: 'Zoë O’Brien-Ñúñez',
        trap_problem_bit: true,
        collection_num: 4242,
        num_trap: 3,
        trap_nights: 2,
        trap: TRAP_ID.gravid,
      }),
  ],
  [
    "a site's own place",
    () => ({ ...makeCollection({ site, lures: [2, 1, 2] }), location: undefined }),
  ],
  ['the Zero Site with its own place', () => makeCollection({ site: zeroSite })],
  [
    'look-alike abundance rows',
    () =>
      makeCollection({
        arthropods: [
          { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.male, num_count: 5 },
          { species: SPECIES_ID.cxPipiens, sex: SEX_ID.male, num_count: 5 },
          { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 5 },
        ],
      }),
  ],
];

describe('a created collection is answered as it is stored', () => {
  for (const [name, body] of bodies) {
    it(name, async () => {
      const created = await records.http.post(URL, records.token, body());
      expect(created.statusCode, created.body).toBe(201);
      const read = await records.http.get(`${URL}/${created.json().id}`, records.token);
      expect(read.statusCode).toBe(200);
      expect(created.json()).toEqual(read.json());
      // toEqual does not tell 0 from -0 in JSON; the bytes do.
      expect(created.body).toBe(read.body);
    });
  }
});
