import type { onRequestHookHandler } from 'fastify';
import type { RecordsContext } from '../context';

// TODO(records-core): bearer token → request.caller; 401 unauthenticated / token_expired
export function authenticate(_ctx: RecordsContext): onRequestHookHandler {
  return (_req, _reply, done) => done();
}
