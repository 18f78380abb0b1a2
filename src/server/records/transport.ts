import type { onRequestHookHandler } from 'fastify';
import type { RecordsContext } from './context';

// TODO(records-core): contract §8: 403 https_required unless loopback / trusted proxy
export function requireSecureTransport(_ctx: RecordsContext): onRequestHookHandler {
  return (_req, _reply, done) => done();
}
