import type { FastifyInstance } from 'fastify';
import { poolTestCreate, poolTestUpdate } from '#shared/schemas/pool-test';
import { applyFields, parseListQuery } from '../../../../list';
import type { RecordsContext } from '../../../../context';
import { notFound, parseBody } from '../../../../errors';
import { POOL_TEST_LIST, listPoolTests } from '../../../../pool-tests/list-pool-tests';
import { populatePoolTests } from '../../../../pool-tests/populate-pool-tests';
import { poolTestRecords } from '../../../../pool-tests/pool-test-records';
import { assertInt4 } from '../../../../common/int4-errors';
import { parsePathId } from '../../../../../http/path-id';
import { putBody } from '../../../../put-body';
import { createOnce } from '../../../../create-once';
import { createPoolTest, updatePoolTest } from '../../../../pool-tests/write-pool-test';

type IdParams = { Params: { id: string } };

/** /v1/arthropod/pool/test: contract §4 and §6 (pool tests). */
export default async function poolTestRoutes(
  app: FastifyInstance,
  ctx: RecordsContext,
): Promise<void> {
  app.get('/v1/arthropod/pool/test', async (req) => listPoolTests(ctx.db, req.caller, req.url));

  app.get<IdParams>('/v1/arthropod/pool/test/:id', async (req) => {
    const id = parsePathId(req.params.id, 'Pool test');
    const q = parseListQuery(req.url, POOL_TEST_LIST);
    const [record] = await poolTestRecords(ctx.db, req.caller.agencyId, [id]);
    if (!record) throw notFound('Pool test');
    await populatePoolTests(ctx.db, req.caller.agencyId, [record], q.populate);
    return applyFields([record as { id: unknown }], q.fields)[0];
  });

  app.post('/v1/arthropod/pool/test', async (req, reply) => {
    const body = parseBody(poolTestCreate, req.body);
    assertInt4(body, ['value']);
    reply.status(201);
    return createOnce(ctx.db, req, (db) => createPoolTest(db, req.caller, body, ctx.now()));
  });

  app.put<IdParams>('/v1/arthropod/pool/test/:id', async (req) => {
    const id = parsePathId(req.params.id, 'Pool test');
    const body = parseBody(poolTestUpdate, putBody('poolTest', req.body));
    assertInt4(body, ['value']);
    return updatePoolTest(ctx.db, req.caller, id, body, ctx.now());
  });
}
