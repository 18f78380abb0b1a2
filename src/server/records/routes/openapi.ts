import type { FastifyInstance } from 'fastify';
import type { RecordsContext } from '../context';

// TODO(records-core): GET /openapi.json
export default async function openapiRoutes(
  _app: FastifyInstance,
  _ctx: RecordsContext,
): Promise<void> {}
