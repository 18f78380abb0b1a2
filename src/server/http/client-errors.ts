import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from './http-error';

/**
 * What every answer refused before any route or hook carries (here, and framework-errors.ts):
 * not sniffed into another type, not framed, not kept by a cache.
 */
export const REFUSAL_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cache-control': 'no-store',
} as const;

/** The error node's HTTP parser (or its timers) raised on a connection, as Fastify passes it. */
type ClientError = Error & { code?: string };

function errorFor(err: ClientError): HttpError {
  switch (err.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new HttpError(408, 'bad_request', 'The request took too long to arrive');
    case 'HPE_HEADER_OVERFLOW':
      return new HttpError(431, 'bad_request', 'The request headers are too large');
    default:
      // Duplicate or invalid Content-Length, Content-Length with Transfer-Encoding, bytes a
      // request line or header may not hold: nothing a route ever saw.
      return new HttpError(400, 'bad_request', 'The request is not valid HTTP');
  }
}

/**
 * Fastify's clientErrorHandler for both servers: what node's parser refuses before any route
 * (request-smuggling shapes, raw non-ASCII in the request target, headers over 16 KiB, a
 * request that never finished arriving) is answered with the contract's error body, not
 * Fastify's own `{"error":"Bad Request","statusCode":400}`, with nosniff and no caching, and the
 * connection closed: after such a request the rest of the stream cannot be trusted.
 */
export function answerClientError(
  this: { log: FastifyBaseLogger },
  err: ClientError,
  socket: Socket,
): void {
  // A reset connection has nothing to answer (node's own rule).
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const e = errorFor(err);
  this.log.debug({ code: err.code }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify(e.toBody());
    socket.write(
      [
        `HTTP/1.1 ${e.status} ${statusText(e.status)}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        ...Object.entries(REFUSAL_HEADERS).map(([name, value]) => `${name}: ${value}`),
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  }
  socket.destroy();
}

function statusText(status: number): string {
  switch (status) {
    case 408:
      return 'Request Timeout';
    case 431:
      return 'Request Header Fields Too Large';
    default:
      return 'Bad Request';
  }
}
