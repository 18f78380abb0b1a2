/**
 * The record entities, each fact about them written once: the client database, the outbox and
 * sync, the BFF's allow-list and reconciliation, and the records service's OpenAPI document all
 * read this table. Plain data, no zod: the app loads it on first paint.
 *
 * The entities form one chain, each naming its parent in a payload field:
 * site ← collection (field `site`) ← pool (`collection`) ← pool test (`pool`).
 *
 * Adding an entity: its entry here gives the BFF's allow-list, the tablet's record table and the
 * records service's routes, route schemas and OpenAPI components (entity-added.test.ts). What
 * no plain fact can say is one edit per layer: its zod schemas (schemas/entity-schemas.ts), its
 * SQL table (a migration), and the records service's store, route file and list grammar
 * (ENTITY_LIST_SPECS); the tablet takes the new table without a new Dexie version.
 */
import type { ListParams } from './list-query';

export const ENTITIES = ['site', 'collection', 'pool', 'poolTest'] as const;

/** What every record as the service answers it carries and no client sets (contract §6). */
export const RESPONSE_ONLY_FIELDS = ['id', 'add_date', 'updated'] as const;

/** Each entity's response-only fields (ENTITY[e].responseOnly), kept literal for the schemas. */
export const RESPONSE_ONLY = {
  site: [...RESPONSE_ONLY_FIELDS, 'delete_date', 'original_location'],
  collection: [...RESPONSE_ONLY_FIELDS, 'deactive_date', 'pools'],
  // The collection's (surv_year, location, lures), the tests' (result, test, status).
  pool: [
    ...RESPONSE_ONLY_FIELDS,
    'deactive_date',
    'primary_source',
    'surv_year',
    'location',
    'result',
    'lures',
    'test',
    'status',
  ],
  poolTest: [...RESPONSE_ONLY_FIELDS, 'deactive_date'],
} as const satisfies Record<Entity, readonly string[]>;
export type Entity = (typeof ENTITIES)[number];

export type EntityFacts = {
  /** The resource's path on the records API (`/v1/site`); the BFF serves it under `/api`. */
  path: string;
  /** The Dexie table holding the tablet's records of this entity. */
  table: 'sites' | 'collections' | 'pools' | 'poolTests';
  /** The payload field naming the parent record, and the parent's entity; null for a root. */
  parent: { field: string; entity: Entity } | null;
  /** Whether the service takes `DELETE {path}/{id}` (pool tests have no delete upstream). */
  deletable: boolean;
  /**
   * Create-body fields that narrow which stored records could be a given create's own, in the
   * order they are asked of a list (reconciliation of a create whose answer was lost). Narrowing
   * only: a record is a create's own only when every field matches.
   */
  naturalKey: readonly string[];
  /**
   * Query strings that together list every record of the entity: pool lists show one species
   * type at a time (mosquito by default, contract §4).
   */
  listVariants: readonly ListParams[];
  /**
   * Fields a record as the service answers it carries that a client cannot set, beyond
   * RESPONSE_ONLY_FIELDS: ignored on PUT (contract §6), so a record read with GET can be sent back
   * unchanged; POST still refuses them. The service's PUT reading (records/put-body.ts) and the
   * `*Update` schemas both read `responseOnly` (the two together).
   */
  responseOnly: readonly string[];
  /** References a GET may answer populated (`{id, …}`); on PUT they stand for their id. */
  references: readonly string[];
  /**
   * The tablet's indexed copies of data fields, as row field → data field (a site's code and
   * name, a collection's date): lists sort and search by them. Each is an index of the record's
   * table, and is written again whenever the field changes, so only what a screen queries.
   */
  localIndexes: Readonly<Record<string, string>>;
  /** What a person calls one record: "New pool test …", "Pool test not found". */
  noun: string;
  /** OpenAPI component name of the record (`${name}Create`, `${name}Update` for bodies) and tag. */
  openapi: { name: string; tag: string };
};

export const ENTITY: { readonly [E in Entity]: EntityFacts } = {
  site: {
    path: '/v1/site',
    table: 'sites',
    parent: null,
    deletable: true,
    naturalKey: ['code'],
    listVariants: [{}],
    responseOnly: RESPONSE_ONLY.site,
    localIndexes: { code: 'code', name: 'name' },
    references: ['coordinate_precision', 'region', 'agency', 'user'],
    noun: 'Site',
    openapi: { name: 'Site', tag: 'sites' },
  },
  collection: {
    path: '/v1/arthropod/collection',
    table: 'collections',
    parent: { field: 'site', entity: 'site' },
    deletable: true,
    naturalKey: ['trap', 'site'],
    listVariants: [{}],
    responseOnly: RESPONSE_ONLY.collection,
    localIndexes: { collectionDate: 'collection_date' },
    references: ['trap', 'site', 'agency', 'user'],
    noun: 'Collection',
    openapi: { name: 'Collection', tag: 'collections' },
  },
  pool: {
    path: '/v1/arthropod/pool',
    table: 'pools',
    parent: { field: 'collection', entity: 'collection' },
    deletable: true,
    naturalKey: ['species', 'sex', 'num_count', 'collection'],
    listVariants: [{ type: 'mosquito' }, { type: 'tick' }, { type: 'nontick' }],
    responseOnly: RESPONSE_ONLY.pool,
    localIndexes: {},
    references: ['collection', 'site', 'species', 'sex', 'trap', 'agency', 'user'],
    noun: 'Pool',
    openapi: { name: 'Pool', tag: 'pools' },
  },
  poolTest: {
    path: '/v1/arthropod/pool/test',
    table: 'poolTests',
    parent: { field: 'pool', entity: 'pool' },
    deletable: false,
    naturalKey: ['pool', 'method', 'target'],
    listVariants: [{}],
    responseOnly: RESPONSE_ONLY.poolTest,
    localIndexes: {},
    references: ['pool', 'method', 'target', 'status', 'test_agency', 'agency', 'user'],
    noun: 'Pool test',
    openapi: { name: 'PoolTest', tag: 'pool tests' },
  },
};

/**
 * The registry as what is built from it reads it: ENTITY itself, or (in a test) ENTITY and
 * an entity more. The BFF's allow-list, the records service's route schemas and OpenAPI
 * document, and the tablet's record tables are each built by a function of such a table.
 */
export type EntityRegistry = {
  readonly [entity: string]: Omit<EntityFacts, 'table' | 'parent'> & {
    table: string;
    parent: { field: string; entity: string } | null;
  };
};

/** The entity whose records name this entity as their parent (site → collection → pool → test). */
export const CHILD_ENTITY: Partial<Record<Entity, Entity>> = Object.fromEntries(
  ENTITIES.flatMap((e) => {
    const parent = ENTITY[e].parent;
    return parent ? [[parent.entity, e]] : [];
  }),
);

/** The entity served at a resource path of the records API (`/v1/site`, no id), if any. */
export function entityAtPath(path: string): Entity | undefined {
  return ENTITIES.find((e) => ENTITY[e].path === path);
}
