import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Where map tiles may come from: any https origin, and plain http on this machine only (a tile
 * server beside Trapline). Deliberately not TILE_URL's host: a tablet keeps this header with its
 * copy of the page and of the service worker (the precache answers later navigations with it), so
 * a host pinned here would keep blocking the office's next tile server on every installed tablet
 * until its browser profile was wiped (field trial, issue 35). Scripts stay 'self' only, so a wider
 * image and fetch allowance does not open a way to run code. No IPv6 loopback: CSP's source
 * grammar has no IPv6 address, and Chromium dropped 'http://[::1]:*' with a console error on
 * every page (TILE_URL refuses one: env.ts).
 */
const TILE_SOURCES = ['https:', 'http://127.0.0.1:*', 'http://localhost:*'];

/**
 * Security headers on every answer: a CSP with no inline scripts but the build's own, map tiles (images and fetches)
 * as the only outside sources, no framing; no referrer; geolocation and the camera for this origin only; HSTS only over TLS (sending
 * it over plain HTTP on loopback would be ignored at best, and wrong behind a misconfigured proxy).
 * Register it before any other onRequest hook: hooks run in the order they are added, and one
 * that answers early (a refused path, a missing CSRF header) would otherwise answer without them.
 */
export async function securityHeaders(
  app: FastifyInstance,
  /** Hashes of the inline scripts the built index.html carries (inline-scripts.ts). */
  inlineScripts: readonly string[] = [],
): Promise<void> {
  const tiles = TILE_SOURCES;
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // 'wasm-unsafe-eval' compiles WebAssembly (the scanner's ZXing reader, from 'self'); it
        // allows no eval of JavaScript. Inline: only index.html's own scripts, by their hash.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'", ...inlineScripts],
        // Leaflet positions tiles and markers with inline style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', ...tiles],
        connectSrc: ["'self'", ...tiles],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
    hsts: false,
    // Tiles come from another origin without CORP headers; COEP would block them.
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onSend', async (req, reply) => {
    // The camera: Scan reads labels and trap tags (features/scan), this origin only.
    reply.header('permissions-policy', 'geolocation=(self), camera=(self)');
    // API answers carry one agency's records: no shared or browser HTTP cache keeps them unless
    // a route says otherwise (lookups revalidate with their ETag).
    if (req.url.startsWith('/api/') && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
    }
    if (req.protocol === 'https')
      reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
  });
}
