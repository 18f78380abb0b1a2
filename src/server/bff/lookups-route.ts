import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http/http-error';
import type { BffContext } from './context';
import { requireSession, sessionOf } from './require-session';

/** GET /api/lookups: every lookup list in one document, with a strong ETag and 304. */
export async function lookupsRoute(app: FastifyInstance, ctx: BffContext): Promise<void> {
  app.get('/api/lookups', { preHandler: requireSession(ctx) }, async (req, reply) => {
    const session = sessionOf(req);
    let doc;
    try {
      doc = await ctx.lookups.get(session.info.agency, session.token);
    } catch (err) {
      if (err instanceof HttpError && err.code === 'reauth_required') {
        await ctx.sessions.expireToken(session, ctx.now());
      }
      throw err;
    }
    reply.header('etag', doc.etag).header('cache-control', 'private, no-cache');
    const inm = req.headers['if-none-match'];
    if (inm && inm.split(',').some((t) => t.trim() === doc.etag)) return reply.status(304).send();
    return reply.header('content-type', 'application/json; charset=utf-8').send(doc.text);
  });
}
