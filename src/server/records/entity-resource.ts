import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { ENTITY, type Entity, type EntityFacts } from '#shared/entities';
import { applyFields, parseListQuery, type ListSpec } from './list';
import { notFound } from './errors';
import type { Database } from '../db/database';
import type { ActiveRecordKind } from './list/list-active-records';
import { ENTITY_LIST_SPECS, ENTITY_ROUTES, type EntityRouteSchemas } from './openapi/route-schemas';

/** What the routes of an entity's resource are made of: registry facts, schemas, list grammar. */
export type EntityResource<C extends z.ZodType, U extends z.ZodType> = {
  facts: Pick<EntityFacts, 'path' | 'deletable' | 'noun'>;
  schemas: EntityRouteSchemas<C, U>;
  list: ListSpec;
};

/** A record as the service answers it: every one has its id. */
type Row = Record<string, unknown>;

/** What only the entity's own store can do: its SQL, its rules. */
export type EntityHandlers<C extends z.ZodType, U extends z.ZodType> = {
  list(req: FastifyRequest): Promise<unknown>;
  /** The record with the references `populate` names populated; none when there is no such. */
  get(id: number, populate: string[], req: FastifyRequest): Promise<Row | null | undefined>;
  create(body: z.output<C>, req: FastifyRequest): Promise<unknown>;
  update(id: number, body: z.output<U>, req: FastifyRequest): Promise<unknown>;
  /** Exactly when the registry says the entity is deletable. */
  delete?: (id: number, req: FastifyRequest) => Promise<unknown>;
};

/** An entity's resource as the registry (ENTITY) and the service's tables describe it. */
export function entityResource<E extends Entity>(entity: E) {
  return { facts: ENTITY[entity], schemas: ENTITY_ROUTES[entity], list: ENTITY_LIST_SPECS[entity] };
}

type IdRequest = FastifyRequest & { params: { id: number } };

/**
 * The routes of an entity's resource at its registry path: list and create on the path; get,
 * update and (when deletable) delete on `{path}/{id}`. A record's GET reads `populate[]` and
 * `fields[]` as its list does (contract §4); a create answers 201.
 */
export function registerEntityResource<C extends z.ZodType, U extends z.ZodType>(
  fastify: FastifyInstance,
  { facts, schemas, list }: EntityResource<C, U>,
  handlers: EntityHandlers<C, U>,
): void {
  const { path, noun, deletable } = facts;
  // The registry says which entities the service deletes (the BFF forwards deletes by it too).
  if (deletable !== (handlers.delete !== undefined))
    throw new Error(`${noun}: deletable is ${deletable} in the registry, not in its handlers`);
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(path, { schema: schemas.list }, async (req) => handlers.list(req));

  app.get(`${path}/:id`, { schema: schemas.get }, async (req) => {
    const q = parseListQuery(req.url, list);
    const record = await handlers.get((req as IdRequest).params.id, q.populate, req);
    if (!record) throw notFound(noun);
    return applyFields([record as Row & { id: unknown }], q.fields)[0];
  });

  app.post(path, { schema: schemas.create }, async (req, reply) => {
    reply.status(201);
    return handlers.create(req.body as z.output<C>, req);
  });

  app.put(`${path}/:id`, { schema: schemas.update }, async (req) =>
    handlers.update((req as IdRequest).params.id, req.body as z.output<U>, req),
  );

  const remove = handlers.delete;
  if (remove)
    app.delete(`${path}/:id`, { schema: schemas.delete }, async (req) =>
      remove((req as IdRequest).params.id, req),
    );
}

/**
 * A record's GET from its kind's reader and populator, as its list reads them (collections,
 * pools, pool tests): the record of the caller's agency, populated as asked.
 */
export function recordReader(
  db: Database,
  { records, populate }: Pick<ActiveRecordKind, 'records' | 'populate'>,
): EntityHandlers<z.ZodType, z.ZodType>['get'] {
  return async (id, names, req) => {
    const [record] = await records(db, req.caller.agencyId, [id]);
    if (record) await populate(db, req.caller.agencyId, [record], names);
    return record;
  };
}
