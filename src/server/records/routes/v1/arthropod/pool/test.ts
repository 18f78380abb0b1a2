import type { FastifyInstance } from 'fastify';
import type { RecordsContext } from '../../../../context';
import { listPoolTests } from '../../../../pool-tests/list-pool-tests';
import { populatePoolTests } from '../../../../pool-tests/populate-pool-tests';
import { poolTestRecords } from '../../../../pool-tests/pool-test-records';
import { assertInt4 } from '../../../../common/int4-errors';
import { createOnce } from '../../../../create-once';
import { createPoolTest, updatePoolTest } from '../../../../pool-tests/write-pool-test';
import { entityResource, recordReader, registerEntityResource } from '../../../../entity-resource';

/** /v1/arthropod/pool/test: contract §4 and §6 (pool tests; the interface has no delete). */
export default async function poolTestRoutes(
  app: FastifyInstance,
  ctx: RecordsContext,
): Promise<void> {
  registerEntityResource(app, entityResource('poolTest'), {
    list: async (req) => listPoolTests(ctx.db, req.caller, req.url),
    get: recordReader(ctx.db, { records: poolTestRecords, populate: populatePoolTests }),
    create: async (body, req) => {
      assertInt4(body, ['value']);
      return createOnce(ctx.db, req, (db) => createPoolTest(db, req.caller, body, ctx.now()));
    },
    update: async (id, body, req) => {
      assertInt4(body, ['value']);
      return updatePoolTest(ctx.db, req.caller, id, body, ctx.now());
    },
  });
}
