import type { FastifyInstance } from 'fastify';
import type { RecordsContext } from '../../../context';

// TODO(records-arthropod): /v1/arthropod/pool
export default async function poolRoutes(_app: FastifyInstance, _ctx: RecordsContext): Promise<void> {}
