import { siteCreate, ZERO_SITE_CODE } from '#shared';
import { defineMessages, type IntlShape } from 'react-intl';
import type { SiteCheck } from '../../lib/site-index';
import type { FieldLabels } from '../../ui/form/form-errors';

/** The site form's field names, for its labels and zod's generic messages. */
export const SITE_WORDS = defineMessages({
  code: { id: 'siteForm.code', defaultMessage: 'Site code' },
  name: { id: 'siteForm.name', defaultMessage: 'Site name' },
  precision: { id: 'coordinates.precision', defaultMessage: 'Coordinate precision' },
  longitude: { id: 'coordinates.longitude', defaultMessage: 'Longitude' },
  latitude: { id: 'coordinates.latitude', defaultMessage: 'Latitude' },
  coordinates: { id: 'siteForm.coordinates', defaultMessage: 'Coordinates' },
  address: { id: 'siteForm.address', defaultMessage: 'Address' },
  address2: { id: 'siteForm.address2', defaultMessage: 'Address line 2' },
  city: { id: 'siteForm.city', defaultMessage: 'City' },
  postalCode: { id: 'siteForm.postalCode', defaultMessage: 'Postal code' },
  population: { id: 'siteForm.population', defaultMessage: 'Population' },
  elevation: { id: 'siteForm.elevation', defaultMessage: 'Elevation' },
  activeDate: { id: 'siteForm.activeDate', defaultMessage: 'Active since' },
  comments: { id: 'form.comments', defaultMessage: 'Comments' },
});

/** Field labels, also used to word zod's generic messages. */
export const SITE_LABELS: FieldLabels = {
  code: SITE_WORDS.code,
  name: SITE_WORDS.name,
  coordinate_precision: SITE_WORDS.precision,
  'shape.coordinates.0': SITE_WORDS.longitude,
  'shape.coordinates.1': SITE_WORDS.latitude,
  'shape.coordinates': SITE_WORDS.coordinates,
  address_1: SITE_WORDS.address,
  address_2: SITE_WORDS.address2,
  city: SITE_WORDS.city,
  postal_code: SITE_WORDS.postalCode,
  site_population: SITE_WORDS.population,
  elevation: SITE_WORDS.elevation,
  active_date: SITE_WORDS.activeDate,
  comments: SITE_WORDS.comments,
};

/** A date (`YYYY-MM-DD` as UTC midnight, like the service) or date-time as epoch ms, else null. */
function timeOf(value: unknown): number | null {
  if (typeof value !== 'string' || value === '') return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : t;
}

/**
 * A site's `active_date` or `deactive_date`: as saved on this tablet, else as the service last
 * returned it (a pulled site's deactive_date is the office's, kept only in `server`).
 */
function dateOf(site: SiteCheck, key: 'active_date' | 'deactive_date'): unknown {
  const own = site.data[key];
  if (own !== undefined && own !== null && own !== '') return own;
  return site.server?.[key] ?? null;
}

/** When a site's period starts: its active_date, else when it was added (as the service). */
function startOf(site: SiteCheck): number {
  return (
    timeOf(dateOf(site, 'active_date')) ??
    timeOf(site.server?.add_date) ??
    site.createdAt ??
    Date.now()
  );
}

/** When a site's period ends (its deactive_date); null while it is open. */
function endOf(site: SiteCheck): number | null {
  const deactive = dateOf(site, 'deactive_date');
  // A date that cannot be read is taken as open: the code stays in use.
  return deactive === null ? null : timeOf(deactive);
}

/**
 * The site that keeps `code` in use for a site active from `activeDate` (contract §6), if any: a
 * site with that code and no deactive_date, or a deactive_date on/after `activeDate` (a revision
 * may reuse a code for a later period). Without an active_date the new site starts now, as the
 * service assumes.
 *
 * An edit (`selfLocalId` a site on this tablet) is held, as the service holds it (site-store
 * siteUsingCode), to the overlap of the two periods both ways: a site starting on/after the
 * edited one's start must start after the edited one ends, an earlier one must have ended before
 * it starts. An old revision can then be edited while a later one reuses its code.
 */
export function siteUsingCode(
  sites: readonly SiteCheck[],
  code: string,
  selfLocalId: string | null,
  activeDate: string | null | undefined,
): SiteCheck | null {
  const self = selfLocalId ? sites.find((s) => s.localId === selfLocalId) : undefined;
  const from = timeOf(activeDate) ?? (self ? startOf(self) : Date.now());
  const until = self ? endOf(self) : undefined;
  return (
    sites.find((s) => {
      if (s.code !== code || s.localId === selfLocalId || s.deleted) return false;
      if (until !== undefined && startOf(s) >= from) return until === null || until >= startOf(s);
      const ends = endOf(s);
      return ends === null || ends >= from;
    }) ?? null
  );
}

/**
 * The shared site schema plus the checks that can be made offline against the cached sites: a
 * code already used names the site that uses it.
 */
export function siteFormSchema(
  intl: IntlShape,
  sites: readonly SiteCheck[],
  selfLocalId: string | null,
) {
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
            ? intl.formatMessage({
                id: 'siteForm.zeroCode',
                defaultMessage: 'Code 000000 belongs to the Zero Site — pick another code',
              })
            : intl.formatMessage(
                {
                  id: 'siteForm.codeTaken',
                  defaultMessage:
                    "Site code {code} is already used by ''{name}'' — pick another code",
                },
                { code, name: other.name },
              ),
      });
    },
    { when: () => true },
  );
}
