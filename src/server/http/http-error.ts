import type { ErrorBody, ErrorCode, FieldError } from '#shared/schemas/error';

/**
 * An error either server (records service, BFF) answers with the contract's status and error
 * body (contract §2). Thrown anywhere in a route; the error handler (error-handler.ts) sends it.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    /** Every failing field of a 422. */
    readonly fields?: FieldError[],
    /** Headers the answer carries (Retry-After of a 429 or 409, Allow of a 405). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  toBody(): ErrorBody {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.fields ? { fields: this.fields } : {}),
      },
    };
  }
}

const tooLarge = () => new HttpError(413, 'payload_too_large', 'The body is larger than 1 MiB');
const notJson = () =>
  new HttpError(415, 'unsupported_media_type', 'Send JSON with Content-Type: application/json');

/**
 * Maps anything thrown to the contract's error. Never a stack, token or SQL in the body: only
 * HttpErrors and Fastify's own request errors keep what they say; anything else is a 500 with
 * `internalMessage` (which names the server that failed).
 */
export function toHttpError(err: unknown, internalMessage: string): HttpError {
  if (err instanceof HttpError) return err;
  const e = err as { code?: string; statusCode?: number; message?: string };
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return tooLarge();
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return notJson();
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new HttpError(400, 'bad_request', 'The request body is not valid');
  }
  if (err instanceof SyntaxError)
    return new HttpError(400, 'bad_request', 'The body is not valid JSON');
  if (e.statusCode === 413) return tooLarge();
  if (e.statusCode === 415) return notJson();
  // A directory or a hidden file asked of a static handler.
  if (e.statusCode === 403 || e.statusCode === 404)
    return new HttpError(404, 'not_found', 'Not found');
  if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500)
    return new HttpError(400, 'bad_request', 'The request is not valid');
  return new HttpError(500, 'internal', internalMessage);
}
