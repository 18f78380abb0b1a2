import { ZERO_SITE_CODE } from '#shared';
import type { SiteCheck } from '../../lib/site-index';

/**
 * The agency's sites a site's place is compared with: not deleted, not the site itself, and not
 * the Zero Site (a one-off location's stand-in, which has no place of its own to be near).
 */
export function otherSites(sites: readonly SiteCheck[], selfLocalId: string | null): SiteCheck[] {
  return sites.filter((s) => !s.deleted && s.localId !== selfLocalId && s.code !== ZERO_SITE_CODE);
}
