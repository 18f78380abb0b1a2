import { CRS_4326 } from '#shared/schemas/common';
import type { SiteRow } from './site-row';

export const isoOrNull = (v: Date | string | null): string | null =>
  v === null ? null : new Date(v).toISOString();

/**
 * Plain decimal text without trailing zeros ("12.50" → "12.5", never "1e+25"); the contract
 * returns elevation as a numeric string. PostgreSQL's numeric text is already plain decimal, so
 * only the zeros are trimmed (going through Number would switch to exponent form).
 */
export function numericString(v: string | number | null): string | null {
  if (v === null) return null;
  const text =
    typeof v === 'number'
      ? v.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 })
      : v;
  if (!/^-?\d+(\.\d+)?$/.test(text)) return text;
  const trimmed = text.includes('.') ? text.replace(/\.?0+$/, '') : text;
  return trimmed === '-0' ? '0' : trimmed;
}

/** A site as the service returns it: `id` first, shape with crs, dates in UTC with ms. */
export function serializeSite(row: SiteRow): Record<string, unknown> & { id: number } {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    coordinate_precision: row.coordinate_precision,
    shape: { type: 'Point', coordinates: [row.lon, row.lat], crs: CRS_4326 },
    active_date: isoOrNull(row.active_date),
    deactive_date: isoOrNull(row.deactive_date),
    address_1: row.address_1,
    address_2: row.address_2,
    city: row.city,
    comments: row.comments,
    elevation: numericString(row.elevation),
    postal_code: row.postal_code,
    region: row.region,
    revision_comments: row.revision_comments,
    site_population: row.site_population,
    site_land_usage: row.site_land_usage ?? [],
    site_land_usage_custom: row.site_land_usage_custom ?? [],
    agency: row.agency,
    user: row.user_id,
    add_date: isoOrNull(row.add_date),
    updated: isoOrNull(row.updated),
    delete_date: isoOrNull(row.delete_date),
  };
}

/** Every field a serialized site has: the names `fields[]` accepts. */
export const SITE_OUTPUT_FIELDS = Object.keys(
  serializeSite({
    id: 1,
    agency: 1,
    user_id: null,
    code: '',
    name: '',
    coordinate_precision: 1,
    lon: 0,
    lat: 0,
    active_date: null,
    deactive_date: null,
    address_1: null,
    address_2: null,
    city: null,
    comments: null,
    elevation: null,
    postal_code: null,
    region: null,
    revision_comments: null,
    site_population: null,
    site_land_usage: null,
    site_land_usage_custom: null,
    add_date: new Date(0),
    updated: new Date(0),
    delete_date: null,
  }),
).concat('original_location');
