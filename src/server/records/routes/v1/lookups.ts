import type { FastifyInstance } from 'fastify';
import type { RecordsContext } from '../../context';

// TODO(records-core): lookup lists
export default async function lookupRoutes(
  _app: FastifyInstance,
  _ctx: RecordsContext,
): Promise<void> {}
