import type { FastifyInstance } from 'fastify';
import type { RecordsContext } from '../../../context';
import { collectionRecords } from '../../../collections/collection-records';
import { createCollection } from '../../../collections/create-collection';
import { deleteCollection } from '../../../collections/delete-collection';
import { updateCollection } from '../../../collections/update-collection';
import { listCollections } from '../../../collections/list-collections';
import { populateCollections } from '../../../collections/populate-collections';
import { assertInt4 } from '../../../common/int4-errors';
import { createOnce } from '../../../create-once';
import { entityResource, recordReader, registerEntityResource } from '../../../entity-resource';

/** /v1/arthropod/collection: contract §4 (lists, populate) and §6 (collections). */
export default async function collectionRoutes(
  app: FastifyInstance,
  ctx: RecordsContext,
): Promise<void> {
  registerEntityResource(app, entityResource('collection'), {
    list: async (req) => listCollections(ctx.db, req.caller, req.url),
    get: recordReader(ctx.db, { records: collectionRecords, populate: populateCollections }),
    create: async (body, req) => {
      assertInt4(body);
      return createOnce(ctx.db, req, (db) =>
        createCollection(db, ctx.lookups, req.caller, body, ctx.now()),
      );
    },
    update: async (id, body, req) => {
      assertInt4(body);
      return updateCollection(ctx.db, req.caller, id, body, ctx.now());
    },
    delete: async (id, req) => deleteCollection(ctx.db, req.caller, id, ctx.now()),
  });
}
