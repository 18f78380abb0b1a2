import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../http/http-error';
import { hasEncodedUnreserved } from '../http/encoded-unreserved';

/**
 * Refuses paths that could be read differently by the BFF and the upstream, or by the router
 * and the checks made on the raw path: dot segments, encoded slashes, backslashes or dots,
 * encoded unreserved characters, doubled slashes, NUL and control characters. Checked on
 * the raw URL before routing, so no later decoding step can turn them into a traversal.
 */
export function rejectAmbiguousPath(req: FastifyRequest, reply: FastifyReply, done: () => void) {
  const raw = req.raw.url ?? '/';
  const path = raw.split('?', 1)[0];
  if (isAmbiguousPath(path)) {
    const e = new HttpError(400, 'bad_request', 'The request path is not valid');
    reply.status(e.status).send(e.toBody());
    return;
  }
  done();
}

function isAmbiguousPath(path: string): boolean {
  if (!path.startsWith('/')) return true;
  if (path.includes('\\') || path.includes('//')) return true;
  if (/%(2f|5c|2e|00)/i.test(path)) return true;
  // An encoded unreserved character: the router decodes it, so `/%61pi/session` would reach
  // /api/session past every check made on the raw path (CSRF, no-store, the app shell's /api test).
  if (hasEncodedUnreserved(path)) return true;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) return true;
  return path.split('/').some((seg) => seg === '.' || seg === '..');
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * CSRF defence for /api: every request but GET /api/health carries `X-CSRF: 1` (a header a
 * cross-site form or image cannot send, and a cross-site fetch cannot send without a CORS
 * preflight this server never grants). State-changing requests must also come from this origin:
 * `Origin` equal to the host they were sent to, or `Sec-Fetch-Site: same-origin | none`.
 */
export function csrfGuard(allowedOrigins: string[]) {
  const allowed = new Set(allowedOrigins.map((o) => o.replace(/\/+$/, '')));
  return (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const path = (req.raw.url ?? '/').split('?', 1)[0];
    if (path !== '/api' && !path.startsWith('/api/')) return done();
    const probe = req.method === 'GET' || req.method === 'HEAD';
    if (probe && (path === '/api/health' || path === '/api/health/')) return done();
    const refuse = (message: string) => {
      const e = new HttpError(403, 'csrf_required', message);
      reply.status(e.status).send(e.toBody());
    };
    if (req.headers['x-csrf'] !== '1') {
      return refuse('This request lacks the X-CSRF: 1 header the Trapline app sends');
    }
    if (SAFE_METHODS.has(req.method)) return done();
    if (!isSameOrigin(req, allowed)) {
      return refuse('Changes are only accepted from the Trapline app itself (same origin)');
    }
    done();
  };
}

function isSameOrigin(req: FastifyRequest, allowed: Set<string>): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = req.headers.origin;
  if (origin === undefined) return site === 'same-origin' || site === 'none';
  if (allowed.has(origin)) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false; // includes the opaque origin "null"
  }
  const host = req.headers.host;
  if (!host || parsed.host !== host.toLowerCase()) return false;
  // Over TLS, an http:// page on the same host is another origin.
  return req.protocol !== 'https' || parsed.protocol === 'https:';
}
