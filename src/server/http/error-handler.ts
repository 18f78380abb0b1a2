import type { FastifyInstance } from 'fastify';
import { toHttpError } from './http-error';

/**
 * Both servers answer every error with the contract's status, headers and body (toHttpError).
 * A 5xx is logged with its code and, for a 500, the error itself (its stack stays in the log,
 * never in the body); `detail` is what an upstream failure adds for the log only.
 */
export function useErrorHandler(app: FastifyInstance, internalMessage: string): void {
  app.setErrorHandler((err, req, reply) => {
    const e = toHttpError(err, internalMessage);
    if (e.status >= 500) {
      const detail = (err as { detail?: string }).detail;
      req.log.error(
        { code: e.code, detail, err: e.status === 500 ? err : undefined },
        'request failed',
      );
    }
    for (const [k, v] of Object.entries(e.headers ?? {})) reply.header(k, v);
    return reply.status(e.status).send(e.toBody());
  });
}
