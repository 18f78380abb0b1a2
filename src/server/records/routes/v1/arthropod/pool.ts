import type { FastifyInstance } from 'fastify';
import { poolCreate, poolUpdate } from '#shared/schemas/pool';
import { applyFields, parseListQuery } from '../../../list';
import type { RecordsContext } from '../../../context';
import { notFound, parseBody } from '../../../errors';
import { createPool } from '../../../pools/create-pool';
import { POOL_LIST, listPools } from '../../../pools/list-pools';
import { populatePools } from '../../../pools/populate-pools';
import { poolRecords } from '../../../pools/pool-records';
import { assertInt4 } from '../../../common/int4-errors';
import { parsePathId } from '../../../../http/path-id';
import { putBody } from '../../../put-body';
import { createOnce } from '../../../create-once';
import { deletePool } from '../../../pools/delete-pool';
import { updatePool } from '../../../pools/update-pool';

type IdParams = { Params: { id: string } };

/** /v1/arthropod/pool: contract §4 (lists, populate, `type`) and §6 (pools). */
export default async function poolRoutes(app: FastifyInstance, ctx: RecordsContext): Promise<void> {
  app.get('/v1/arthropod/pool', async (req) => listPools(ctx.db, req.caller, req.url));

  app.get<IdParams>('/v1/arthropod/pool/:id', async (req) => {
    const id = parsePathId(req.params.id, 'Pool');
    const q = parseListQuery(req.url, POOL_LIST);
    const [record] = await poolRecords(ctx.db, req.caller.agencyId, [id]);
    if (!record) throw notFound('Pool');
    await populatePools(ctx.db, req.caller.agencyId, [record], q.populate);
    return applyFields([record as { id: unknown }], q.fields)[0];
  });

  app.post('/v1/arthropod/pool', async (req, reply) => {
    const body = parseBody(poolCreate, req.body);
    assertInt4(body);
    reply.status(201);
    return createOnce(ctx.db, req, (db) => createPool(db, req.caller, body, ctx.now()));
  });

  app.put<IdParams>('/v1/arthropod/pool/:id', async (req) => {
    const id = parsePathId(req.params.id, 'Pool');
    const body = parseBody(poolUpdate, putBody('pool', req.body));
    assertInt4(body);
    return updatePool(ctx.db, req.caller, id, body, ctx.now());
  });

  app.delete<IdParams>('/v1/arthropod/pool/:id', async (req) => {
    const id = parsePathId(req.params.id, 'Pool');
    return deletePool(ctx.db, req.caller, id, ctx.now());
  });
}
