import type { FastifyInstance } from 'fastify';
import type { RecordsContext } from '../../../context';

// TODO(records-core): agency tokens
export default async function agencyTokenRoutes(_app: FastifyInstance, _ctx: RecordsContext): Promise<void> {}
