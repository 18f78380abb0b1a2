import type { onRequestHookHandler } from 'fastify';
import { HttpError } from '../http/http-error';
import { hasEncodedUnreserved } from '../http/encoded-unreserved';

/**
 * onRequest hook: a path with a percent-encoded unreserved character (`/%761/agency`) → 400.
 * R clients and scripts reach this service without the BFF's path guard in front; the idempotency
 * hook and every route read `req.url`, so they must never see another path than the router.
 */
export const refuseEncodedUnreserved: onRequestHookHandler = (req, _reply, done) => {
  const path = req.url.split('?', 1)[0];
  if (hasEncodedUnreserved(path)) {
    done(new HttpError(400, 'bad_request', 'The request path is not valid'));
    return;
  }
  done();
};
