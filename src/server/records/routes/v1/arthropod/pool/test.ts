import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { applyFields, parseListQuery } from '../../../../list';
import type { RecordsContext } from '../../../../context';
import { notFound } from '../../../../errors';
import { POOL_TEST_LIST, listPoolTests } from '../../../../pool-tests/list-pool-tests';
import { populatePoolTests } from '../../../../pool-tests/populate-pool-tests';
import { poolTestRecords } from '../../../../pool-tests/pool-test-records';
import { assertInt4 } from '../../../../common/int4-errors';
import { ENTITY_ROUTES } from '../../../../openapi/route-schemas';
import { createOnce } from '../../../../create-once';
import { createPoolTest, updatePoolTest } from '../../../../pool-tests/write-pool-test';

const SCHEMA = ENTITY_ROUTES.poolTest;

/** /v1/arthropod/pool/test: contract §4 and §6 (pool tests). */
export default async function poolTestRoutes(
  fastify: FastifyInstance,
  ctx: RecordsContext,
): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/v1/arthropod/pool/test', { schema: SCHEMA.list }, async (req) =>
    listPoolTests(ctx.db, req.caller, req.url),
  );

  app.get('/v1/arthropod/pool/test/:id', { schema: SCHEMA.get }, async (req) => {
    const { id } = req.params;
    const q = parseListQuery(req.url, POOL_TEST_LIST);
    const [record] = await poolTestRecords(ctx.db, req.caller.agencyId, [id]);
    if (!record) throw notFound('Pool test');
    await populatePoolTests(ctx.db, req.caller.agencyId, [record], q.populate);
    return applyFields([record as { id: unknown }], q.fields)[0];
  });

  app.post('/v1/arthropod/pool/test', { schema: SCHEMA.create }, async (req, reply) => {
    const { body } = req;
    assertInt4(body, ['value']);
    reply.status(201);
    return createOnce(ctx.db, req, (db) => createPoolTest(db, req.caller, body, ctx.now()));
  });

  app.put('/v1/arthropod/pool/test/:id', { schema: SCHEMA.update }, async (req) => {
    const { id } = req.params;
    const { body } = req;
    assertInt4(body, ['value']);
    return updatePoolTest(ctx.db, req.caller, id, body, ctx.now());
  });
}
