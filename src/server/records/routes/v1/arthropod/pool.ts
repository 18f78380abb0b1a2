import type { FastifyInstance } from 'fastify';
import type { RecordsContext } from '../../../context';
import { createPool } from '../../../pools/create-pool';
import { listPools } from '../../../pools/list-pools';
import { populatePools } from '../../../pools/populate-pools';
import { poolRecords } from '../../../pools/pool-records';
import { assertInt4 } from '../../../common/int4-errors';
import { createOnce } from '../../../create-once';
import { deletePool } from '../../../pools/delete-pool';
import { updatePool } from '../../../pools/update-pool';
import { entityResource, recordReader, registerEntityResource } from '../../../entity-resource';

/** /v1/arthropod/pool: contract §4 (lists, populate, `type`) and §6 (pools). */
export default async function poolRoutes(app: FastifyInstance, ctx: RecordsContext): Promise<void> {
  registerEntityResource(app, entityResource('pool'), {
    list: async (req) => listPools(ctx.db, req.caller, req.url),
    get: recordReader(ctx.db, { records: poolRecords, populate: populatePools }),
    create: async (body, req) => {
      assertInt4(body);
      return createOnce(ctx.db, req, (db) => createPool(db, req.caller, body, ctx.now()));
    },
    update: async (id, body, req) => {
      assertInt4(body);
      return updatePool(ctx.db, req.caller, id, body, ctx.now());
    },
    delete: async (id, req) => deletePool(ctx.db, req.caller, id, ctx.now()),
  });
}
