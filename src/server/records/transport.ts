import type { TLSSocket } from 'node:tls';
import type { onRequestHookHandler } from 'fastify';
import type { RecordsContext } from './context';
import { HttpError } from '../http/http-error';

/** 127.0.0.0/8, ::1 and their IPv4-mapped forms: the BFF beside the service. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.startsWith('::ffff:') ? address.slice(7) : address;
  return a === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}

function normalize(address: string): string {
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

/**
 * Contract §8: plain HTTP is refused (403 https_required) unless the peer is loopback, the
 * connection itself is TLS, or a proxy listed in TRUST_PROXY says `X-Forwarded-Proto: https`.
 * A forwarded header from any other peer is ignored: anyone can send it.
 */
export function requireSecureTransport(ctx: RecordsContext): onRequestHookHandler {
  const trusted = new Set(ctx.trustProxy.map(normalize));
  return (req, _reply, done) => {
    const peer = req.socket?.remoteAddress ?? req.ip;
    if ((req.socket as TLSSocket | undefined)?.encrypted) return done();
    if (isLoopback(peer)) return done();
    const proto = String(req.headers['x-forwarded-proto'] ?? '')
      .split(',')[0]
      .trim()
      .toLowerCase();
    if (peer && trusted.has(normalize(peer)) && proto === 'https') return done();
    done(
      new HttpError(
        403,
        'https_required',
        'Use HTTPS: this service refuses plain HTTP from other machines',
      ),
    );
  };
}
