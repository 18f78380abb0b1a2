import type { z } from 'zod';
import type { Entity } from '../entities';
import { collectionCreate, collectionUpdate } from './collection';
import { poolCreate, poolUpdate } from './pool';
import { poolTestCreate, poolTestUpdate } from './pool-test';
import { siteCreate, siteUpdate } from './site';

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
