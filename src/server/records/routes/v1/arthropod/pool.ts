import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { applyFields, parseListQuery } from '../../../list';
import type { RecordsContext } from '../../../context';
import { notFound } from '../../../errors';
import { createPool } from '../../../pools/create-pool';
import { POOL_LIST, listPools } from '../../../pools/list-pools';
import { populatePools } from '../../../pools/populate-pools';
import { poolRecords } from '../../../pools/pool-records';
import { assertInt4 } from '../../../common/int4-errors';
import { ENTITY_ROUTES } from '../../../openapi/route-schemas';
import { createOnce } from '../../../create-once';
import { deletePool } from '../../../pools/delete-pool';
import { updatePool } from '../../../pools/update-pool';

const SCHEMA = ENTITY_ROUTES.pool;

/** /v1/arthropod/pool: contract §4 (lists, populate, `type`) and §6 (pools). */
export default async function poolRoutes(
  fastify: FastifyInstance,
  ctx: RecordsContext,
): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/v1/arthropod/pool', { schema: SCHEMA.list }, async (req) =>
    listPools(ctx.db, req.caller, req.url),
  );

  app.get('/v1/arthropod/pool/:id', { schema: SCHEMA.get }, async (req) => {
    const { id } = req.params;
    const q = parseListQuery(req.url, POOL_LIST);
    const [record] = await poolRecords(ctx.db, req.caller.agencyId, [id]);
    if (!record) throw notFound('Pool');
    await populatePools(ctx.db, req.caller.agencyId, [record], q.populate);
    return applyFields([record as { id: unknown }], q.fields)[0];
  });

  app.post('/v1/arthropod/pool', { schema: SCHEMA.create }, async (req, reply) => {
    const { body } = req;
    assertInt4(body);
    reply.status(201);
    return createOnce(ctx.db, req, (db) => createPool(db, req.caller, body, ctx.now()));
  });

  app.put('/v1/arthropod/pool/:id', { schema: SCHEMA.update }, async (req) => {
    const { id } = req.params;
    const { body } = req;
    assertInt4(body);
    return updatePool(ctx.db, req.caller, id, body, ctx.now());
  });

  app.delete('/v1/arthropod/pool/:id', { schema: SCHEMA.delete }, async (req) => {
    const { id } = req.params;
    return deletePool(ctx.db, req.caller, id, ctx.now());
  });
}
