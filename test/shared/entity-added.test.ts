/**
 * "Adding an entity is one edit" (issue 41): what the BFF, the records service's OpenAPI
 * document and the tablet's database know of the entities, they build from the registry they are
 * given. A registry with one entity more (a trap visit, made up here) reaches all three; the
 * module's own registry is never changed.
 *
 * What cannot come from the registry, and is the rest of adding an entity: its zod schemas
 * (shared/schemas/entity-schemas.ts), its SQL table (a migration), and its store in the records
 * service (the handlers of its route file and its list grammar, ENTITY_LIST_SPECS).
 */
import Dexie from 'dexie';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ENTITIES,
  ENTITY,
  RESPONSE_ONLY_FIELDS,
  type EntityRegistry,
} from '../../src/shared/entities';
import { proxyAllowList } from '../../src/server/bff/proxy-allow-list';
import { recordTableStores } from '../../src/client/db/database';
import { useRouteSchemas } from '../../src/server/records/route-validation';
import { useOpenApi } from '../../src/server/records/openapi/swagger';
import { schemaNames } from '../../src/server/records/openapi/schema-names';
import {
  ENTITY_API,
  entityApiSchemas,
  nameEntitySchemas,
  type EntityApiSchemas,
} from '../../src/server/records/openapi/entity-api';
import {
  ENTITY_LIST_SPECS,
  entityRouteSchemas,
} from '../../src/server/records/openapi/route-schemas';
import {
  registerEntityResource,
  type EntityHandlers,
} from '../../src/server/records/entity-resource';
import type { ListSpec } from '../../src/server/records/list';

const TRAP_VISIT_PATH = '/v1/arthropod/trap-visit';

/** The registry, and a trap visit: a technician's check of a site's trap, not deletable. */
const WITH_TRAP_VISIT: EntityRegistry = {
  ...ENTITY,
  trapVisit: {
    path: TRAP_VISIT_PATH,
    table: 'trapVisits',
    parent: { field: 'site', entity: 'site' },
    deletable: false,
    naturalKey: ['site', 'visited_on'],
    listVariants: [{}],
    responseOnly: RESPONSE_ONLY_FIELDS,
    references: ['site'],
    localIndexes: { visitedOn: 'visited_on' },
    noun: 'Trap visit',
    openapi: { name: 'TrapVisit', tag: 'trap visits' },
  },
};

const trapVisitCreate = z.strictObject({ site: z.number().int(), visited_on: z.string() });
const TRAP_VISIT_API = entityApiSchemas(
  trapVisitCreate.extend({ id: z.number().int(), updated: z.string() }),
  { create: trapVisitCreate, update: trapVisitCreate.partial() },
);
const TRAP_VISIT_LIST: ListSpec = { fields: { id: { sql: 'v.id', type: 'int' } } };

const apiOf = (entity: string): EntityApiSchemas =>
  entity === 'trapVisit' ? TRAP_VISIT_API : ENTITY_API[entity as keyof typeof ENTITY_API];
const listOf = (entity: string): ListSpec =>
  entity === 'trapVisit'
    ? TRAP_VISIT_LIST
    : ENTITY_LIST_SPECS[entity as keyof typeof ENTITY_LIST_SPECS];

/** Handlers that answer without a store: the document is what is under test. */
const noStore = (deletable: boolean): EntityHandlers<z.ZodType, z.ZodType> => ({
  list: async () => ({ rows: [], count: 0 }),
  get: async () => undefined,
  create: async (body) => body,
  update: async (id, body) => ({ id, ...(body as object) }),
  ...(deletable ? { delete: async (id: number) => ({ id }) } : {}),
});

const sorted = (values: Iterable<string>) => [...values].sort();

describe('a registry with an entity more', () => {
  it('the BFF forwards its path: read, create and update, and no delete as it is not deletable', () => {
    const routes = proxyAllowList(WITH_TRAP_VISIT);
    const methods = (path: string) =>
      sorted(routes.filter((r) => r.path === path).map((r) => r.method));
    expect(methods(TRAP_VISIT_PATH)).toEqual(['GET', 'POST']);
    expect(methods(`${TRAP_VISIT_PATH}/:id`)).toEqual(['GET', 'PUT']);
    // The registry's own entities are forwarded as before.
    for (const entity of ENTITIES)
      expect(methods(`${ENTITY[entity].path}/:id`)).toEqual(
        sorted(['GET', 'PUT', ...(ENTITY[entity].deletable ? ['DELETE'] : [])]),
      );
  });

  it("the tablet's database gets its record table, indexed by parent and its own indexed copy", () => {
    const stores = recordTableStores(WITH_TRAP_VISIT);
    expect(stores.trapVisits).toBe('localId, &serverId, parentLocalId, visitedOn');
    const db = new Dexie('entity-added-test');
    db.version(1).stores(stores);
    expect(sorted(db.tables.map((t) => t.name))).toEqual(
      sorted([...ENTITIES.map((e) => ENTITY[e].table), 'trapVisits']),
    );
    // The registry's own tables keep the indexes they had (no new database version).
    expect(recordTableStores(ENTITY)).toEqual({
      sites: 'localId, &serverId, code, name',
      collections: 'localId, &serverId, parentLocalId, collectionDate',
      pools: 'localId, &serverId, parentLocalId',
      poolTests: 'localId, &serverId, parentLocalId',
    });
  });

  describe("the records service's OpenAPI document", () => {
    type Operation = {
      requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
      responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>;
    };
    let doc: {
      paths: Record<string, Record<string, Operation>>;
      components: { schemas: Record<string, unknown> };
    };
    const app = Fastify();
    beforeAll(async () => {
      // Names in a registry of the test's own: the service's (zod's global one) is left as it is.
      const names = schemaNames(z.registry<{ id?: string }>());
      useRouteSchemas(app);
      await useOpenApi(app, names);
      for (const [entity, facts] of Object.entries(WITH_TRAP_VISIT)) {
        nameEntitySchemas(names, facts.openapi.name, apiOf(entity));
        const schemas = entityRouteSchemas(facts, apiOf(entity), listOf(entity));
        registerEntityResource(
          app,
          { facts, schemas, list: listOf(entity) },
          noStore(facts.deletable),
        );
      }
      await app.ready();
      doc = app.swagger() as unknown as typeof doc;
    });
    afterAll(() => app.close());

    it('describes its resource: list and create, get and update, no delete', () => {
      expect(sorted(Object.keys(doc.paths[TRAP_VISIT_PATH] ?? {}))).toEqual(['get', 'post']);
      expect(sorted(Object.keys(doc.paths[`${TRAP_VISIT_PATH}/{id}`] ?? {}))).toEqual([
        'get',
        'put',
      ]);
      for (const entity of ENTITIES)
        expect(doc.paths[`${ENTITY[entity].path}/{id}`], entity).toBeDefined();
    });

    it('names its record, bodies and list as components, and its routes refer to them', () => {
      for (const name of ['TrapVisit', 'TrapVisitCreate', 'TrapVisitUpdate', 'TrapVisitList'])
        expect(doc.components.schemas, name).toHaveProperty(name);
      const refOf = (o?: { content?: Record<string, { schema: { $ref?: string } }> }) =>
        o?.content?.['application/json'].schema.$ref;
      const list = doc.paths[TRAP_VISIT_PATH];
      expect(refOf(list.post.requestBody)).toBe('#/components/schemas/TrapVisitCreate');
      expect(refOf(list.post.responses['201'])).toBe('#/components/schemas/TrapVisit');
      expect(refOf(list.get.responses['200'])).toBe('#/components/schemas/TrapVisitList');
      const item = doc.paths[`${TRAP_VISIT_PATH}/{id}`];
      expect(refOf(item.put.requestBody)).toBe('#/components/schemas/TrapVisitUpdate');
    });
  });

  it('refuses handlers that delete what the registry says is not deletable', () => {
    const app = Fastify();
    const facts = WITH_TRAP_VISIT.trapVisit;
    const schemas = entityRouteSchemas(facts, TRAP_VISIT_API, TRAP_VISIT_LIST);
    expect(() =>
      registerEntityResource(app, { facts, schemas, list: TRAP_VISIT_LIST }, noStore(true)),
    ).toThrow(/Trap visit: deletable is false/);
    void app.close();
  });
});
