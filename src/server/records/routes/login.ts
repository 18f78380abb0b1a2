import type { FastifyInstance } from 'fastify';
import type { RecordsContext } from '../context';

// TODO(records-core): POST /login
export default async function loginRoutes(_app: FastifyInstance, _ctx: RecordsContext): Promise<void> {}
