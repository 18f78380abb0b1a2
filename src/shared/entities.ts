/**
 * The record entities, each fact about them written once: the client database, the outbox and
 * sync, the BFF's allow-list and reconciliation, and the records service's OpenAPI document all
 * read this table. Plain data, no zod: the app loads it on first paint.
 *
 * The entities form one chain, each naming its parent in a payload field:
 * site ← collection (field `site`) ← pool (`collection`) ← pool test (`pool`).
 */
import type { ListParams } from './list-query';

export const ENTITIES = ['site', 'collection', 'pool', 'poolTest'] as const;
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
    noun: 'Pool test',
    openapi: { name: 'PoolTest', tag: 'pool tests' },
  },
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
