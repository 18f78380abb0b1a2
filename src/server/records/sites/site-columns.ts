import { storedDate } from '../stored-date';
import type { SiteCreate } from '#shared/schemas/site';

/** Writable site columns and the cast of their bound value. Names are constants, never input. */
const CASTS = {
  code: 'text',
  name: 'text',
  coordinate_precision: 'int',
  lon: 'double precision',
  lat: 'double precision',
  active_date: 'timestamptz',
  deactive_date: 'timestamptz',
  address_1: 'text',
  address_2: 'text',
  city: 'text',
  comments: 'text',
  elevation: 'numeric',
  postal_code: 'text',
  region: 'int',
  revision_comments: 'text',
  site_population: 'text',
  site_land_usage: 'int[]',
  site_land_usage_custom: 'text[]',
} as const;
export type SiteColumn = keyof typeof CASTS;
export const SITE_COLUMN_CASTS: Readonly<Record<SiteColumn, string>> = CASTS;
export const SITE_COLUMN_NAMES = Object.keys(CASTS) as SiteColumn[];

/**
 * Columns of the fields present in a (partial) site body; `null` clears. agency/user are not here.
 * Throws 422 for a date PostgreSQL cannot store.
 */
export function siteColumns(input: Partial<SiteCreate>): Partial<Record<SiteColumn, unknown>> {
  const out: Partial<Record<SiteColumn, unknown>> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || key === 'agency' || key === 'user') continue;
    if (key === 'shape') {
      const [lon, lat] = (value as NonNullable<SiteCreate['shape']>).coordinates;
      out.lon = lon;
      out.lat = lat;
    } else if (key === 'active_date' || key === 'deactive_date') {
      out[key] = value === null ? null : storedDate(value as string, key);
    } else if (key in CASTS) {
      out[key as SiteColumn] = value;
    }
  }
  return out;
}

/** `col = $n::cast` assignments (or placeholders) for the given columns, numbered from `first`. */
export function bindColumns(columns: Partial<Record<SiteColumn, unknown>>, first: number) {
  const names = Object.keys(columns) as SiteColumn[];
  return {
    names,
    placeholders: names.map((n, i) => `$${first + i}::${CASTS[n]}`),
    values: names.map((n) => columns[n]),
  };
}
