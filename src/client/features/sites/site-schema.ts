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

/** A date (`YYYY-MM-DD` as UTC midnight, like the service) or date-time as epoch ms, else null. */
function timeOf(value: unknown): number | null {
  if (typeof value !== 'string' || value === '') return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : t;
}

/**
 * The site that keeps `code` in use for a site active from `activeDate` (contract §6), if any: a
 * site with that code and no deactive_date, or a deactive_date on/after `activeDate` (a revision
 * may reuse a code for a later period). Without an active_date the new site starts now, as the
 * service assumes.
 */
export function siteUsingCode(
  sites: readonly SiteRow[],
  code: string,
  selfLocalId: string | null,
  activeDate: string | null | undefined,
): SiteRow | null {
  const from = timeOf(activeDate) ?? Date.now();
  return (
    sites.find((s) => {
      if (s.code !== code || s.localId === selfLocalId || s.deleted) return false;
      const deactive = (s.data as Partial<SiteCreate>).deactive_date;
      if (deactive === undefined || deactive === null || deactive === '') return true;
      const ends = timeOf(deactive);
      return ends === null || ends >= from;
    }) ?? null
  );
}

/**
 * The shared site schema plus the checks that can be made offline against the cached sites: a
 * code already used names the site that uses it.
 */
export function siteFormSchema(sites: readonly SiteRow[], selfLocalId: string | null) {
  // On the whole site, since whether a code is in use depends on the new site's active_date; it
  // runs even while other fields are wrong (`when`), so the value may be partly invalid.
  return siteCreate.superRefine(
    (site, ctx) => {
      const { code, active_date: activeDate } = site as { code?: unknown; active_date?: unknown };
      if (typeof code !== 'string') return;
      const other = siteUsingCode(
        sites,
        code,
        selfLocalId,
        typeof activeDate === 'string' ? activeDate : null,
      );
      if (!other) return;
      ctx.addIssue({
        code: 'custom',
        path: ['code'],
        message:
          code === ZERO_SITE_CODE
            ? 'Code 000000 belongs to the Zero Site — pick another code'
            : `Site code ${code} is already used by '${other.name}' — pick another code`,
      });
    },
    { when: () => true },
  );
}
