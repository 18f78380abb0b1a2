import { z } from 'zod';
import { ENTITIES, type Entity } from '#shared/entities';
import { ENTITY_BODIES, ENTITY_RECORDS } from '#shared/schemas/entity-schemas';
import { nameSchema, type SchemaNames } from './schema-names';

/** `{rows, count}` of a list; count is every match before paging (contract §4). */
export const listOf = (row: z.ZodType) =>
  z
    .object({ rows: z.array(row), count: z.number().int() })
    .meta({ description: '{rows, count}: count is every match before paging' });

/** What an entity's routes read and answer: its record, its two bodies and its list. */
export type EntityApiSchemas<C extends z.ZodType = z.ZodType, U extends z.ZodType = z.ZodType> = {
  record: z.ZodType;
  create: C;
  update: U;
  list: z.ZodType;
};

/** An entity's API schemas from its shared ones (its list made once, so it can be named). */
export function entityApiSchemas<C extends z.ZodType, U extends z.ZodType>(
  record: z.ZodType,
  bodies: { create: C; update: U },
): EntityApiSchemas<C, U> {
  return { record, ...bodies, list: listOf(record) };
}

type Bodies = typeof ENTITY_BODIES;
/** Each entity's API schemas, typed per entity (a route's handler reads its own body type). */
export type EntityApi = {
  [E in Entity]: EntityApiSchemas<Bodies[E]['create'], Bodies[E]['update']>;
};

// Built by entity, so typed as the per-entity tables it is built from (a map loses the pairing).
export const ENTITY_API = Object.fromEntries(
  ENTITIES.map((e) => [
    e,
    entityApiSchemas<z.ZodType, z.ZodType>(ENTITY_RECORDS[e], ENTITY_BODIES[e]),
  ]),
) as unknown as EntityApi;

/** An entity's components: `Site`, `SiteCreate`, `SiteUpdate` (bodies, as sent) and `SiteList`. */
export function nameEntitySchemas(names: SchemaNames, name: string, api: EntityApiSchemas): void {
  nameSchema(names, api.record, name);
  nameSchema(names, api.create, `${name}Create`, 'input');
  nameSchema(names, api.update, `${name}Update`, 'input');
  nameSchema(names, api.list, `${name}List`);
}
