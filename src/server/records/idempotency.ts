import type { FastifyInstance } from 'fastify';
import type { RecordsContext } from './context';

// TODO(records-core): contract §9 hooks for POST with Idempotency-Key.
export function idempotency(_app: FastifyInstance, _ctx: RecordsContext): void {}
