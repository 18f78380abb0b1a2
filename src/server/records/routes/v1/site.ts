import type { FastifyInstance } from 'fastify';
import type { RecordsContext } from '../../context';

// TODO(records-core): /v1/site
export default async function siteRoutes(
  _app: FastifyInstance,
  _ctx: RecordsContext,
): Promise<void> {}
