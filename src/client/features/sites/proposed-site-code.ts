import { SITE_CODE } from '#shared';
import type { TraplineDb } from '../../db/database';
import { nextSiteCode } from './next-site-code';

/** The highest code there is: from it on the proposal is the lowest free code (nextSiteCode). */
const LAST_CODE = '999999';

/**
 * The code to propose for a new site: nextSiteCode over every code on the tablet (deleted sites'
 * too: a proposal skips them, no harm), read from the top of the code index down to the highest
 * 6-digit code. Below 999999 the proposal is that code + 1 whatever the others are, so they are
 * not read: walking 20,000 codes took a cursor step each on the page's thread, most of the two
 * seconds New site took to open at district scale. Codes that are not 6 digits and sort above it
 * (older systems' codes) are read on the way. Only when 999999 is taken, and the proposal must be
 * the lowest free code, is every code read.
 */
export async function proposedSiteCode(db: TraplineDb): Promise<string | null> {
  const top = await db.sites
    .orderBy('code')
    .reverse()
    .until((site) => SITE_CODE.test(site.code), true)
    .toArray();
  const codes = top.map((site) => site.code);
  if (!codes.includes(LAST_CODE)) return nextSiteCode(codes);
  return nextSiteCode((await db.sites.orderBy('code').uniqueKeys()) as string[]);
}
