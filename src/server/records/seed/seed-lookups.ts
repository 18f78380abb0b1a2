import type { Queryable } from '../../db/database';
import { insertRows } from './insert-rows';
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
} from './lookup-data';

/** Seeds every lookup table of contract §5 and the regions. Expects them empty. */
export async function seedLookups(db: Queryable): Promise<void> {
  await insertRows(db, 'region', REGIONS);
  await insertRows(db, 'species', SPECIES);
  await insertRows(db, 'sex', SEXES);
  await insertRows(db, 'trap', TRAPS);
  await insertRows(db, 'lure', LURES);
  await insertRows(db, 'coordinate_precision', COORDINATE_PRECISIONS);
  await insertRows(db, 'land_usage', LAND_USAGES);
  await insertRows(db, 'test_method', TEST_METHODS);
  await insertRows(db, 'test_target', TEST_TARGETS);
  await insertRows(db, 'test_status', TEST_STATUSES);
}
