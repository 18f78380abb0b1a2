import {
  METHOD_ID,
  PRECISION_ID,
  SEX_ID,
  SPECIES_ID,
  STATUS_ID,
  TARGET_ID,
  TRAP_ID,
} from '../../../../src/server/records/seed/lookup-data';

/**
 * Bodies of records as the records service takes them, with the lookups it is seeded with
 * (lookup-data.ts): for tests that make records at the service, through the BFF or in a tablet's
 * outbox. Each is a part of a body that a test completes with its parent and its own fields.
 */

/** A site: a GPS point at `coordinates` ([longitude, latitude]: Sacramento unless told). */
export function siteBody(
  code: string | number,
  name: string,
  coordinates: [number, number] = [-121.49, 38.58],
) {
  return {
    code: String(code),
    name,
    coordinate_precision: PRECISION_ID.gps,
    shape: { type: 'Point', coordinates },
  };
}

/** One CO2 trap set for one night, collected on `date`: a collection, less its site and catch. */
export function trapNight(date: string) {
  return { collection_date: date, num_trap: 1, trap: TRAP_ID.co2, trap_nights: 1 };
}

/**
 * `count` Cx. tarsalis, females mixed: a collection's abundance row, or a pool's species, sex and
 * count.
 */
export function tarsalis(count: number) {
  return { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: count };
}

/**
 * An RT-PCR test run on `date` by `agency`, for WNV and negative unless told: a pool test, less
 * its pool.
 */
export function rtPcrTest(
  date: string,
  agency: number,
  result: { target?: number; status?: number } = {},
) {
  return {
    method: METHOD_ID.rtPcr,
    target: result.target ?? TARGET_ID.wnv,
    status: result.status ?? STATUS_ID.negative,
    test_date: date,
    test_agency: agency,
  };
}
