import { validationFailed } from './errors';
import { storableDate } from './storable';

/**
 * An input date in the stored (output) form, or 422 naming `path` when PostgreSQL cannot store
 * it: a valid ISO date such as `9999-12-31T23:00:00-12:00` is in year 10000 in UTC. Used by
 * every record that takes a date (sites, collections, pools, pool tests).
 */
export function storedDate(input: string, path: string): string {
  const iso = storableDate(input);
  if (iso === null) {
    throw validationFailed([
      { path, message: 'Use a date between years 0001 and 9999 (in UTC); check the year' },
    ]);
  }
  return iso;
}
