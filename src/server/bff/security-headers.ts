import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/** Origin(s) of the map tiles for the CSP, from a template like https://{s}.tile.example.org/{z}/{x}/{y}.png. */
function tileSources(tileUrl: string): string[] {
  const match = /^(https?):\/\/([^/]+)/.exec(tileUrl);
  if (!match) return [];
  const host = match[2].replace(/\{s\}/g, '*');
  return [`${match[1]}://${host}`];
}

/**
 * Security headers on every answer: a CSP with no inline scripts, map tiles as the only outside
 * origin, no framing; no referrer; geolocation for this origin only; HSTS only over TLS (sending
 * it over plain HTTP on loopback would be ignored at best, and wrong behind a misconfigured proxy).
 * Register it before any other onRequest hook: hooks run in the order they are added, and one
 * that answers early (a refused path, a missing CSRF header) would otherwise answer without them.
 */
export async function securityHeaders(app: FastifyInstance, tileUrl: string): Promise<void> {
  const tiles = tileSources(tileUrl);
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
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
    reply.header('permissions-policy', 'geolocation=(self)');
    // API answers carry one agency's records: no shared or browser HTTP cache keeps them unless
    // a route says otherwise (lookups revalidate with their ETag).
    if (req.url.startsWith('/api/') && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
    }
    if (req.protocol === 'https')
      reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
  });
}
