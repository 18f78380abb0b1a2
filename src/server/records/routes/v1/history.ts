import type { FastifyInstance } from 'fastify';
import type { RecordsContext } from '../../context';
import { readHistory } from '../../history/read-history';
import { HISTORY_ROUTE_SCHEMA } from '../../openapi/history-schema';

/** /v1/history: the history of a record, or the agency's changes since a date (contract §11). */
export default async function historyRoutes(
  app: FastifyInstance,
  ctx: RecordsContext,
): Promise<void> {
  app.get('/v1/history', { schema: HISTORY_ROUTE_SCHEMA }, async (req) =>
    readHistory(ctx.db, req.caller, req.url),
  );
}
