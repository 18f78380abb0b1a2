import type { CompressionPolicy } from '../http/compression';

/**
 * Routes whose answers are never compressed, whatever their size: they carry a secret (or set
 * one) next to text the requester chose. Prefixes of route patterns, so routes added under them
 * later are covered too.
 * - /api/session: sign-in answers the user, agency and expiry for the username typed, and sets
 *   the session cookie; kept out so that no answer that creates a session is ever compressed.
 * - /api/v1/me…: the caller's own account (token revocation, password change).
 * - /api/v1/agency/token…: a new agency token is shown once, in the answer.
 * - /api/v1/user…: a new or reset account's temporary password is shown once, next to the
 *   username and full name the manager typed.
 */
export const UNCOMPRESSED_API_ROUTES = [
  '/api/session',
  '/api/v1/me',
  '/api/v1/agency/token',
  '/api/v1/user',
] as const;

/**
 * Which BFF answers are compressed: `/api` answers (JSON, CSV, GeoJSON) but those above. The
 * app's own files are not: the build ships them precompressed (compressed-copies.ts, served by
 * app-shell.ts), and the map archive is already-compressed tiles served by byte range.
 *
 * BREACH (a compressed answer's length leaks a secret when an attacker can add guesses of it to
 * the same answer and watch the sizes) is ruled out on two independent grounds:
 * 1. No cross-site request reaches an /api answer with the user's session: the session cookie
 *    is SameSite=Strict, and every /api request must carry `X-CSRF: 1`, a header a page of another
 *    origin can only send after a CORS preflight, which the BFF never grants (request-guards.ts).
 *    So an attacker cannot make the tablet's browser send the chosen requests BREACH needs.
 * 2. No compressed answer holds a secret: the app has no CSRF token (the header's value is a
 *    constant), the upstream token never leaves the BFF, and the session id travels only in the
 *    Set-Cookie header (headers are not compressed). The only secrets an answer ever carries are
 *    the ones issued by the routes above, which are never compressed. What is compressed is the
 *    agency's records, reports, lookups and exports, which the requester may read anyway.
 */
export const bffCompressionPolicy: CompressionPolicy = {
  compressible: (url) => isApiRoute(url) && !UNCOMPRESSED_API_ROUTES.some((p) => under(url, p)),
};

function isApiRoute(url: string): boolean {
  return url.startsWith('/api/');
}

/** `url` is `prefix` or a route below it (not merely a longer name: /api/sessions is not). */
function under(url: string, prefix: string): boolean {
  return url === prefix || url.startsWith(`${prefix}/`);
}
