import type { ErrorCode } from '#shared/schemas/error';

/** An error tus answers with: its status and the contract's error body (contract §2). */
export type TusError = { status_code: number; body: string };

export function tusError(status: number, code: ErrorCode, message: string): TusError {
  return { status_code: status, body: JSON.stringify({ error: { code, message } }) };
}

/** tus's own plain-text refusals, as the contract's codes. */
const CODE_OF_STATUS: Record<number, ErrorCode> = {
  400: 'bad_request',
  403: 'forbidden',
  404: 'not_found',
  409: 'upload_offset_mismatch',
  410: 'not_found',
  412: 'bad_request',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

/**
 * Every error answer of /api/uploads carries the contract's JSON body: tus's own errors (plain
 * text) get the code of their status; ours already have it. A 5xx says nothing of the cause.
 */
export function contractBody(status: number, body: string): string {
  if (body.startsWith('{')) return body;
  if (status >= 500) {
    return JSON.stringify({
      error: {
        code: 'internal',
        message: 'Something went wrong in Trapline; the photo was not stored. It is sent again',
      },
    });
  }
  const code = CODE_OF_STATUS[status] ?? 'bad_request';
  return JSON.stringify({ error: { code, message: body.trim() || code } });
}
