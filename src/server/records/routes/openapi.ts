import type { FastifyInstance } from 'fastify';
import type { RecordsContext } from '../context';
import { buildOpenApi } from '../openapi/build-openapi';

/** GET /openapi.json: the service's OpenAPI 3.1 document, built once from the shared schemas. */
export default async function openapiRoutes(
  app: FastifyInstance,
  _ctx: RecordsContext,
): Promise<void> {
  let document: Record<string, unknown> | undefined;
  app.get('/openapi.json', async () => (document ??= buildOpenApi()));
}
