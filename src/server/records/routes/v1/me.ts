import type { FastifyInstance } from 'fastify';
import type { RecordsContext } from '../../context';

// TODO(records-core): GET /v1/me
export default async function meRoutes(_app: FastifyInstance, _ctx: RecordsContext): Promise<void> {}
