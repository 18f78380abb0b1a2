import { siteCreate, ZERO_SITE_CODE, type SiteCreate } from '../../../shared';
import type { SiteRow } from '../../db/database';

/** Field labels, also used to word zod's generic messages. */
export const SITE_LABELS: Record<string, string> = {
  code: 'Site code',
  name: 'Site name',
  coordinate_precision: 'Coordinate precision',
  'shape.coordinates.0': 'Longitude',
  'shape.coordinates.1': 'Latitude',
  'shape.coordinates': 'Coordinates',
  address_1: 'Address',
  address_2: 'Address line 2',
  city: 'City',
  postal_code: 'Postal code',
  site_population: 'Population',
  elevation: 'Elevation',
  active_date: 'Active since',
  comments: 'Comments',
};

/** The site that already uses `code` (contract rule: a code is unique among active sites), if any. */
export function siteUsingCode(
  sites: readonly SiteRow[],
  code: string,
  selfLocalId: string | null,
): SiteRow | null {
  return (
    sites.find(
      (s) =>
        s.code === code &&
        s.localId !== selfLocalId &&
        !s.deleted &&
        !(s.data as Partial<SiteCreate>).deactive_date,
    ) ?? null
  );
}

/**
 * The shared site schema plus the checks that can be made offline against the cached sites: a
 * code already used names the site that uses it.
 */
export function siteFormSchema(sites: readonly SiteRow[], selfLocalId: string | null) {
  return siteCreate.extend({
    code: siteCreate.shape.code.superRefine((code, ctx) => {
      const other = siteUsingCode(sites, code, selfLocalId);
      if (!other) return;
      ctx.addIssue({
        code: 'custom',
        message:
          code === ZERO_SITE_CODE
            ? 'Code 000000 belongs to the Zero Site — pick another code'
            : `Site code ${code} is already used by '${other.name}' — pick another code`,
      });
    }),
  });
}
