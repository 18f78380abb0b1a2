import type { CompressionPolicy } from '../http/compression';

/**
 * Routes of the records service whose answers are never compressed: they issue a secret next to
 * text the caller chose (POST /login: the token, with the agencies of the username given; agency
 * tokens and temporary passwords, shown once; the caller's own account). Prefixes of route
 * patterns, so routes added under them later are covered too.
 */
const UNCOMPRESSED_ROUTES = ['/login', '/v1/me', '/v1/agency/token', '/v1/user'] as const;

/**
 * Records → BFF answers are compressed (br or gzip, by the BFF's Accept-Encoding) but for the
 * routes above. The BFF asks for compression only on reads (upstream-client.ts), where the volume
 * is (list pages for pulls, reports and exports), and no read answers a secret; excluding the
 * secret-issuing routes here as well keeps any other client of the service safe from BREACH-style
 * guessing of tokens and passwords through answer sizes.
 */
export const recordsCompressionPolicy: CompressionPolicy = {
  compressible: (url) => !UNCOMPRESSED_ROUTES.some((p) => url === p || url.startsWith(`${p}/`)),
};
