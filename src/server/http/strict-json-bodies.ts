import type { FastifyInstance } from 'fastify';
import { HttpError } from './http-error';
import { MAX_BODY_DEPTH, nestedDeeperThan } from './json-depth';

/**
 * Strict JSON request bodies, shared by the records service and the BFF (contract §2): an empty
 * body reads as none, malformed JSON → 400 bad_request, any other media type → 415
 * unsupported_media_type, as HttpErrors the shared error handler answers with the contract's
 * body. Bodies over `bodyLimit` are refused by Fastify (413).
 * A body nested deeper than MAX_BODY_DEPTH → 400 bad_request here, before any hook or route
 * walks it: idempotency hashing, the journal's canonical form, NUL and int4 checks and the
 * schemas all recurse, and a 10,000-level body would overflow the stack into a 500.
 */
export function useStrictJsonBodies(app: FastifyInstance, bodyLimit: number): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit },
    (_req, body, done) => {
      const text = String(body);
      if (text.trim() === '') return done(null, undefined);
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return done(new HttpError(400, 'bad_request', 'The body is not valid JSON'), undefined);
      }
      if (nestedDeeperThan(value, MAX_BODY_DEPTH)) {
        const message = `The body is nested more than ${MAX_BODY_DEPTH} levels deep; no record has such a shape`;
        return done(new HttpError(400, 'bad_request', message), undefined);
      }
      done(null, value);
    },
  );
  app.addContentTypeParser('*', (req, _payload, done) => {
    const type = String(req.headers['content-type'] ?? 'none');
    done(
      new HttpError(
        415,
        'unsupported_media_type',
        `Send JSON with Content-Type: application/json (got ${type})`,
      ),
      undefined,
    );
  });
}
