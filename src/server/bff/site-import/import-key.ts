import { createHash } from 'node:crypto';
import type { SiteCreate } from '#shared/schemas/site';
import { canonicalJson } from '../parse-json';

/**
 * The Idempotency-Key of an import's create: a UUID-shaped hash of the agency, the site code and
 * the body. The same file imported again sends the same keys, so a create whose answer was lost
 * (a timeout, the BFF restarted) is replayed by the upstream, never made twice. The body is part
 * of the key because the contract refuses one key with two bodies (422 idempotency_key_reused):
 * a row fixed between two attempts must still be creatable. Duplicates of a code are impossible
 * whatever the key: the upstream refuses a second site with a code in use (409 site_code_taken).
 * `salt` separates a create made again after the first one's site was deleted.
 */
export function importKey(agencyId: number, body: SiteCreate, salt = ''): string {
  const h = createHash('sha256')
    .update(`trapline-site-import/1\n${agencyId}\n${body.code}\n${canonicalJson(body)}\n${salt}`)
    .digest('hex');
  // RFC 9562 layout: version 8 (custom), variant 10.
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
