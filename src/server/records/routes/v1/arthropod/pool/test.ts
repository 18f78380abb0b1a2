import type { FastifyInstance } from 'fastify';
import type { RecordsContext } from '../../../../context';

// TODO(records-arthropod): /v1/arthropod/pool/test
export default async function poolTestRoutes(_app: FastifyInstance, _ctx: RecordsContext): Promise<void> {}
