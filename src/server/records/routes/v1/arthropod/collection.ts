import type { FastifyInstance } from 'fastify';
import type { RecordsContext } from '../../../context';

// TODO(records-arthropod): /v1/arthropod/collection
export default async function collectionRoutes(_app: FastifyInstance, _ctx: RecordsContext): Promise<void> {}
