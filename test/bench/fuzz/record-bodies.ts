import {
  COORDINATE_PRECISIONS,
  LAND_USAGES,
  LURES,
  REGIONS,
  SEXES,
  SPECIES,
  TEST_METHODS,
  TEST_STATUSES,
  TEST_TARGETS,
  TRAPS,
} from '../../../src/server/records/seed/lookup-data';
import type { FuzzWorld, Resource } from './fuzz-world';
import { plausibleDate } from './hostile-values';
import type { SeededRandom } from './seeded-random';

const ids = (rows: ReadonlyArray<{ id: number }>) => rows.map((r) => r.id);
export const LOOKUP_IDS = {
  species: ids(SPECIES),
  sex: ids(SEXES),
  trap: ids(TRAPS),
  lure: ids(LURES),
  precision: ids(COORDINATE_PRECISIONS),
  landUsage: ids(LAND_USAGES),
  region: ids(REGIONS),
  method: ids(TEST_METHODS),
  target: ids(TEST_TARGETS),
  status: ids(TEST_STATUSES),
  agency: [1, 2, 3],
};

/** A point around Sacramento, [longitude, latitude]. */
function point(rng: SeededRandom): [number, number] {
  return [-121.49 + rng.int(-500, 500) / 1000, 38.58 + rng.int(-500, 500) / 1000];
}

function location(rng: SeededRandom) {
  return {
    shape: { type: 'Point', coordinates: point(rng) },
    coordinate_precision: rng.pick(LOOKUP_IDS.precision),
  };
}

/** Abundance rows with distinct (species, sex), sometimes mixing F-Mixed with a condition. */
function arthropods(rng: SeededRandom) {
  const rows: Record<string, number>[] = [];
  const seen = new Set<string>();
  for (let i = rng.int(0, 4); i > 0; i--) {
    const species = rng.pick(LOOKUP_IDS.species.slice(0, 6));
    const sex = rng.pick(LOOKUP_IDS.sex);
    if (seen.has(`${species}:${sex}`)) continue;
    seen.add(`${species}:${sex}`);
    rows.push({ species, sex, num_count: rng.int(0, 60) });
  }
  return rows;
}

/** A valid create body (valid as far as the schema goes: the rules may still refuse it). */
export function validCreate(
  rng: SeededRandom,
  world: FuzzWorld,
  agency: number,
  resource: Resource,
): Record<string, unknown> {
  switch (resource) {
    case 'site': {
      const body: Record<string, unknown> = {
        // Mostly fresh codes; sometimes a taken one or the Zero Site's (rule 5, D6).
        code: rng.chance(0.05)
          ? '000000'
          : String(rng.int(100_000, rng.chance(0.2) ? 100_050 : 999_999)),
        name: `Fuzz site ${rng.int(1, 1e6)}`,
        coordinate_precision: rng.pick(LOOKUP_IDS.precision),
        shape: { type: 'Point', coordinates: point(rng) },
      };
      if (rng.chance(0.3)) body.elevation = rng.int(-50, 3000) / 10;
      if (rng.chance(0.2)) body.postal_code = String(rng.int(95000, 96199));
      if (rng.chance(0.2)) body.active_date = plausibleDate(rng);
      if (rng.chance(0.1)) body.deactive_date = plausibleDate(rng);
      if (rng.chance(0.2)) body.site_population = rng.pick(['Suburban', 'Urban', 'Rural']);
      if (rng.chance(0.2)) body.site_land_usage = rng.some(LOOKUP_IDS.landUsage);
      if (rng.chance(0.1)) body.region = rng.pick(LOOKUP_IDS.region);
      if (rng.chance(0.2)) body.city = 'Sacramento';
      return body;
    }
    case 'collection': {
      const body: Record<string, unknown> = {
        collection_date: plausibleDate(rng),
        num_trap: rng.int(1, 3),
        trap: rng.pick(LOOKUP_IDS.trap),
        trap_nights: rng.int(1, 2),
      };
      if (rng.chance(0.5)) body.site = world.refId(rng, agency, 'site');
      if (!body.site || rng.chance(0.3)) body.location = location(rng);
      if (rng.chance(0.8)) body.arthropods = arthropods(rng);
      if (rng.chance(0.3)) body.lures = rng.some(LOOKUP_IDS.lure, 2);
      if (rng.chance(0.1)) body.collection_num = rng.int(1, 5_000);
      if (rng.chance(0.05)) body.surv_year = rng.pick([2025, 2026, 2027]);
      if (rng.chance(0.2)) body.comments = 'fuzz';
      if (rng.chance(0.1)) body.trap_problem_bit = rng.chance(0.5);
      return body;
    }
    case 'pool': {
      const collection = world.liveId(rng, agency, 'collection');
      const rows =
        collection !== undefined ? world.of(agency).abundance.get(collection) : undefined;
      const row = rows && rows.length > 0 ? rng.pick(rows) : undefined;
      const body: Record<string, unknown> = {
        species: row?.species ?? rng.pick(LOOKUP_IDS.species.slice(0, 6)),
        sex: row?.sex ?? rng.pick(LOOKUP_IDS.sex),
        num_count: rng.int(1, Math.max(1, Math.ceil((row?.num_count ?? 5) / 2))),
      };
      if (collection !== undefined && rng.chance(0.85)) body.collection = collection;
      else {
        // A pool given by its site, date and trap (primary_source_bit: true), or unplaced.
        body.site = world.refId(rng, agency, 'site');
        body.collection_date = plausibleDate(rng);
        body.trap = rng.pick(LOOKUP_IDS.trap);
        body.primary_source_bit = rng.chance(0.9);
      }
      if (rng.chance(0.1)) body.pool_num = rng.int(1, 5_000);
      if (rng.chance(0.2)) body.comments = 'fuzz pool';
      return body;
    }
    case 'test': {
      const body: Record<string, unknown> = {
        pool: world.refId(rng, agency, 'pool'),
        method: rng.pick(LOOKUP_IDS.method),
        target: rng.pick(LOOKUP_IDS.target),
        status: rng.pick(LOOKUP_IDS.status),
        // Mostly after every fuzz collection; sometimes a date that may precede its pool's.
        test_date: rng.chance(0.8)
          ? `2028-0${rng.int(1, 9)}-1${rng.int(0, 9)}`
          : plausibleDate(rng),
        test_agency: rng.pick(LOOKUP_IDS.agency),
      };
      if (rng.chance(0.5)) body.value = rng.int(100, 4000) / 100;
      if (rng.chance(0.2)) body.comments = 'fuzz test';
      return body;
    }
  }
}

/** A valid-looking PUT body: a few fields of a create, sometimes with response-only echoes. */
export function validUpdate(
  rng: SeededRandom,
  world: FuzzWorld,
  agency: number,
  resource: Resource,
): Record<string, unknown> {
  const full = validCreate(rng, world, agency, resource);
  const keys = Object.keys(full);
  const body: Record<string, unknown> = {};
  for (const k of rng.some(keys, keys.length)) body[k] = full[k];
  if (resource === 'pool' && rng.chance(0.2)) {
    // Moving a pool to another collection (the path of the test-date rule, D4).
    body.collection = world.refId(rng, agency, 'collection');
  }
  if (rng.chance(0.1)) body.id = rng.int(1, 100);
  if (rng.chance(0.1)) body.updated = '2026-01-01T00:00:00.000Z';
  if (rng.chance(0.1)) {
    // null clears an optional field, or (for a required one) must be refused.
    body[rng.pick(keys)] = null;
  }
  return body;
}
