import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { applyFields, parseListQuery } from '../../../list';
import type { RecordsContext } from '../../../context';
import { notFound } from '../../../errors';
import { collectionRecords } from '../../../collections/collection-records';
import { createCollection } from '../../../collections/create-collection';
import { deleteCollection } from '../../../collections/delete-collection';
import { updateCollection } from '../../../collections/update-collection';
import { COLLECTION_LIST, listCollections } from '../../../collections/list-collections';
import { populateCollections } from '../../../collections/populate-collections';
import { assertInt4 } from '../../../common/int4-errors';
import { ENTITY_ROUTES } from '../../../openapi/route-schemas';
import { createOnce } from '../../../create-once';

const SCHEMA = ENTITY_ROUTES.collection;

/** /v1/arthropod/collection: contract §4 (lists, populate) and §6 (collections). */
export default async function collectionRoutes(
  fastify: FastifyInstance,
  ctx: RecordsContext,
): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/v1/arthropod/collection', { schema: SCHEMA.list }, async (req) =>
    listCollections(ctx.db, req.caller, req.url),
  );

  app.get('/v1/arthropod/collection/:id', { schema: SCHEMA.get }, async (req) => {
    const { id } = req.params;
    const q = parseListQuery(req.url, COLLECTION_LIST);
    const [record] = await collectionRecords(ctx.db, req.caller.agencyId, [id]);
    if (!record) throw notFound('Collection');
    await populateCollections(ctx.db, req.caller.agencyId, [record], q.populate);
    return applyFields([record as { id: unknown }], q.fields)[0];
  });

  app.post('/v1/arthropod/collection', { schema: SCHEMA.create }, async (req, reply) => {
    const { body } = req;
    assertInt4(body);
    reply.status(201);
    return createOnce(ctx.db, req, (db) =>
      createCollection(db, ctx.lookups, req.caller, body, ctx.now()),
    );
  });

  app.put('/v1/arthropod/collection/:id', { schema: SCHEMA.update }, async (req) => {
    const { id } = req.params;
    const { body } = req;
    assertInt4(body);
    return updateCollection(ctx.db, req.caller, id, body, ctx.now());
  });

  app.delete('/v1/arthropod/collection/:id', { schema: SCHEMA.delete }, async (req) => {
    const { id } = req.params;
    return deleteCollection(ctx.db, req.caller, id, ctx.now());
  });
}
