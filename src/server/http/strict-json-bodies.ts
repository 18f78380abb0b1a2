import type { FastifyInstance } from 'fastify';

type ErrorFactory = (
  status: 400 | 415,
  code: 'bad_request' | 'unsupported_media_type',
  message: string,
) => Error;

/**
 * Strict JSON request bodies, shared by the records service and the BFF (contract §2): an empty
 * body reads as none, malformed JSON → 400 bad_request, any other media type → 415
 * unsupported_media_type. Each server passes its own error class so its error handler answers
 * with the contract's body. Bodies over `bodyLimit` are refused by Fastify (413).
 */
export function useStrictJsonBodies(
  app: FastifyInstance,
  bodyLimit: number,
  error: ErrorFactory,
): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit },
    (_req, body, done) => {
      const text = String(body);
      if (text.trim() === '') return done(null, undefined);
      try {
        done(null, JSON.parse(text));
      } catch {
        done(error(400, 'bad_request', 'The body is not valid JSON'), undefined);
      }
    },
  );
  app.addContentTypeParser('*', (req, _payload, done) => {
    const type = String(req.headers['content-type'] ?? 'none');
    done(
      error(
        415,
        'unsupported_media_type',
        `Send JSON with Content-Type: application/json (got ${type})`,
      ),
      undefined,
    );
  });
}
