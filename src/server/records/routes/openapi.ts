import type { FastifyInstance } from 'fastify';
import type { RecordsContext } from '../context';
import { buildOpenApi } from '../openapi/build-openapi';
import { openApiPage } from '../openapi/openapi-page';

/**
 * GET /openapi.json: the service's OpenAPI 3.1 document, built once from the shared schemas;
 * GET /docs: the same document as a page to read.
 */
export default async function openapiRoutes(
  app: FastifyInstance,
  _ctx: RecordsContext,
): Promise<void> {
  let document: Record<string, unknown> | undefined;
  let page: string | undefined;
  app.get('/openapi.json', async () => (document ??= buildOpenApi()));
  app.get('/docs', async (_req, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .send((page ??= openApiPage((document ??= buildOpenApi())))),
  );
}
