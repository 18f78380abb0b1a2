import type { FastifyInstance } from 'fastify';
import { collectionCreate, collectionUpdate } from '#shared/schemas/collection';
import { applyFields, parseListQuery } from '../../../list';
import type { RecordsContext } from '../../../context';
import { notFound, parseBody } from '../../../errors';
import { collectionRecords } from '../../../collections/collection-records';
import { createCollection } from '../../../collections/create-collection';
import { deleteCollection } from '../../../collections/delete-collection';
import { updateCollection } from '../../../collections/update-collection';
import { COLLECTION_LIST, listCollections } from '../../../collections/list-collections';
import { populateCollections } from '../../../collections/populate-collections';
import { assertInt4 } from '../../../common/int4-errors';
import { parsePathId } from '../../../../http/path-id';
import { putBody } from '../../../put-body';
import { createOnce } from '../../../create-once';

type IdParams = { Params: { id: string } };

/** /v1/arthropod/collection: contract §4 (lists, populate) and §6 (collections). */
export default async function collectionRoutes(
  app: FastifyInstance,
  ctx: RecordsContext,
): Promise<void> {
  app.get('/v1/arthropod/collection', async (req) => listCollections(ctx.db, req.caller, req.url));

  app.get<IdParams>('/v1/arthropod/collection/:id', async (req) => {
    const id = parsePathId(req.params.id, 'Collection');
    const q = parseListQuery(req.url, COLLECTION_LIST);
    const [record] = await collectionRecords(ctx.db, req.caller.agencyId, [id]);
    if (!record) throw notFound('Collection');
    await populateCollections(ctx.db, req.caller.agencyId, [record], q.populate);
    return applyFields([record as { id: unknown }], q.fields)[0];
  });

  app.post('/v1/arthropod/collection', async (req, reply) => {
    const body = parseBody(collectionCreate, req.body);
    assertInt4(body);
    reply.status(201);
    return createOnce(ctx.db, req, (db) => createCollection(db, req.caller, body, ctx.now()));
  });

  app.put<IdParams>('/v1/arthropod/collection/:id', async (req) => {
    const id = parsePathId(req.params.id, 'Collection');
    const body = parseBody(collectionUpdate, putBody('collection', req.body));
    assertInt4(body);
    return updateCollection(ctx.db, req.caller, id, body, ctx.now());
  });

  app.delete<IdParams>('/v1/arthropod/collection/:id', async (req) => {
    const id = parsePathId(req.params.id, 'Collection');
    return deleteCollection(ctx.db, req.caller, id, ctx.now());
  });
}
