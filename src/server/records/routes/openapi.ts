import type { FastifyInstance } from 'fastify';
import type { RecordsContext } from '../context';
import { openApiPage } from '../openapi/openapi-page';

/** Neither route is part of the document it serves. */
const UNDOCUMENTED = { schema: { hide: true } };

/**
 * GET /openapi.json: the service's OpenAPI 3.1 document, generated from the route schemas;
 * GET /docs: the same document as a page to read.
 */
export default async function openapiRoutes(
  app: FastifyInstance,
  _ctx: RecordsContext,
): Promise<void> {
  let page: string | undefined;
  const document = () => app.swagger() as unknown as Record<string, unknown>;
  app.get('/openapi.json', UNDOCUMENTED, async () => document());
  app.get('/docs', UNDOCUMENTED, async (_req, reply) =>
    reply.type('text/html; charset=utf-8').send((page ??= openApiPage(document()))),
  );
}
