import { SITE_CODE, ZERO_SITE_CODE } from '#shared';

/** The highest site code there is: codes are exactly 6 digits. */
const LAST_CODE = 999_999;
/**
 * Proposed when the tablet knows no numbered site yet: the first code past the Zero Site that
 * keeps all six digits when a spreadsheet reads it as a number.
 */
export const FIRST_PROPOSED_CODE = '100001';

const asCode = (n: number) => String(n).padStart(6, '0');

/**
 * A site code to propose for a new site, from the codes the tablet knows (offline): the largest
 * 6-digit code + 1, so new sites continue the agency's own numbering. Past 999999 it falls back
 * to the lowest free code above the Zero Site's 000000. Codes that are not 6 digits (older
 * systems' codes) are neither counted nor can they collide. Null when every code is taken.
 *
 * Only a proposal: another tablet may have used the code since the last sync, and the server's
 * uniqueness check stays the rule.
 */
export function nextSiteCode(knownCodes: Iterable<string>): string | null {
  const zero = Number(ZERO_SITE_CODE);
  // One byte per possible code (1 MB): a Set of numbers cost ~40 bytes a code and most of the
  // time of a full series.
  const taken = new Uint8Array(LAST_CODE + 1);
  taken[zero] = 1;
  let largest = zero;
  for (const code of knownCodes) {
    if (!SITE_CODE.test(code)) continue;
    const n = Number(code);
    taken[n] = 1;
    if (n > largest) largest = n;
  }
  if (largest === zero) return FIRST_PROPOSED_CODE;
  if (largest < LAST_CODE) return asCode(largest + 1);
  const free = taken.indexOf(0, 1);
  return free === -1 ? null : asCode(free);
}
