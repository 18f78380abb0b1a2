import type { ErrorBody, ErrorCode, FieldError } from '#shared/schemas/error';

/**
 * An error the BFF answers with the contract's status and error body (contract §2). The BFF has
 * its own class because it must not import the records service (they talk HTTP only).
 */
export class BffError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers?: Record<string, string>,
    readonly fields?: FieldError[],
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

export const unauthenticated = () =>
  new BffError(401, 'unauthenticated', 'You are not signed in: sign in to continue');

export const reauthRequired = () =>
  new BffError(
    401,
    'reauth_required',
    'Your sign-in has expired: enter your password again. Nothing you saved is lost.',
  );

/** Maps anything thrown to the contract's error: never a stack, token or SQL in the body. */
export function toBffError(err: unknown): BffError {
  if (err instanceof BffError) return err;
  const e = err as { code?: string; statusCode?: number; message?: string };
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new BffError(413, 'payload_too_large', 'The body is larger than 1 MiB');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new BffError(
        415,
        'unsupported_media_type',
        'Send JSON with Content-Type: application/json',
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new BffError(400, 'bad_request', 'The request body is not valid');
  }
  if (err instanceof SyntaxError)
    return new BffError(400, 'bad_request', 'The body is not valid JSON');
  if (e.statusCode === 413)
    return new BffError(413, 'payload_too_large', 'The body is larger than 1 MiB');
  if (e.statusCode === 415) {
    return new BffError(
      415,
      'unsupported_media_type',
      'Send JSON with Content-Type: application/json',
    );
  }
  // A directory or a hidden file asked of the static handler.
  if (e.statusCode === 403 || e.statusCode === 404)
    return new BffError(404, 'not_found', 'Not found');
  if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
    return new BffError(400, 'bad_request', 'The request is not valid');
  }
  return new BffError(
    500,
    'internal',
    'Something went wrong in Trapline; the request was not applied',
  );
}
