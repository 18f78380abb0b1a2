import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { REFUSAL_HEADERS } from './client-errors';
import { HttpError } from './http-error';

/**
 * Fastify's `frameworkErrors` option: what its router refuses before any route or hook (a path
 * whose %-escapes do not decode, a path parameter over `maxParamLength`) is answered with the
 * contract's error body (§2), not Fastify's own `{"error":"Bad Request","code":"FST_ERR_…"}`.
 * A parameter that long names no record (every `{id}` is a number of at most 16 digits): 404.
 * No hook has run for such a request, so the headers every API answer carries are set here:
 * nosniff, no framing, and no caching (as client-errors.ts does for what node's parser refuses).
 */
export function answerFrameworkError(
  error: FastifyError,
  _req: FastifyRequest,
  reply: FastifyReply,
): void {
  const e =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new HttpError(404, 'not_found', 'No record has such an id')
      : error.code === 'FST_ERR_BAD_URL'
        ? new HttpError(400, 'bad_request', 'The path has a malformed %-escape')
        : new HttpError(400, 'bad_request', 'The request is not valid');
  void reply
    .status(e.status)
    .headers(REFUSAL_HEADERS)
    .type('application/json; charset=utf-8')
    .send(e.toBody());
}
