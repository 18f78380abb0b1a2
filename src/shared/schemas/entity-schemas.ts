import type { z } from 'zod';
import type { Entity } from '../entities';
import { collection, collectionCreate, collectionUpdate } from './collection';
import { pool, poolCreate, poolUpdate } from './pool';
import { poolTest, poolTestCreate, poolTestUpdate } from './pool-test';
import { site, siteCreate, siteUpdate } from './site';

/**
 * Each entity's zod schemas: the one per-entity table of schemas (the entity registry,
 * entities.ts, is plain data and cannot hold them). A new entity adds its schemas here; the
 * records service's route schemas and OpenAPI components are generated from this table.
 */

/**
 * The bodies each entity is sent with: its create (POST) and its partial update (PUT). The
 * tablet checks a record against them before saving it, and the records service reads requests
 * and writes its OpenAPI document with the same ones.
 */
export const ENTITY_BODIES = {
  site: { create: siteCreate, update: siteUpdate },
  collection: { create: collectionCreate, update: collectionUpdate },
  pool: { create: poolCreate, update: poolUpdate },
  poolTest: { create: poolTestCreate, update: poolTestUpdate },
} as const satisfies Record<Entity, Record<'create' | 'update', z.ZodType>>;

/**
 * Each entity's record as the service answers it. Only the records service reads this table (its
 * answers in the OpenAPI document); the app's build leaves it out, unused.
 */
export const ENTITY_RECORDS = {
  site,
  collection,
  pool,
  poolTest,
} as const satisfies Record<Entity, z.ZodType>;
