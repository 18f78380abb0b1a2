import { z } from 'zod';
import { errorBody } from '#shared/schemas/error';
import { ENTITIES, ENTITY, type Entity, type EntityFacts } from '#shared/entities';
import { recordIdParams } from '../../http/path-id';
import { ENTITY_API, type EntityApi, type EntityApiSchemas } from './entity-api';
import { listQuerystring } from '../list/list-querystring';
import type { ListSpec } from '../list';
import { SITE_LIST } from '../sites/site-list-spec';
import { COLLECTION_LIST } from '../collections/list-collections';
import { POOL_LIST } from '../pools/list-pools';
import { POOL_TEST_LIST } from '../pool-tests/list-pool-tests';

/** What each error status of the service means (contract §2). */
const ERROR_STATUSES = {
  '400': 'Malformed JSON or query string (bad_request)',
  '401': 'No, unknown, revoked (unauthenticated) or expired (token_expired) token',
  '403':
    'Not allowed (forbidden), a temporary password not yet changed (password_change_required), ' +
    'or plain HTTP from another machine (https_required)',
  '404': 'Unknown id or a record of another agency (not_found)',
  '409':
    'Conflict: site_code_taken, collection_num_taken, pool_num_taken, username_taken, ' +
    'idempotency_in_flight',
  '413': 'Body over 1 MiB (payload_too_large)',
  '415': 'Body not application/json (unsupported_media_type)',
  '422': 'Validation failed; `fields` lists every failing field',
  '429': 'Too many attempts (rate_limited, Retry-After)',
} as const;
type ErrorStatus = keyof typeof ERROR_STATUSES;

/** An answer with a JSON body. */
export const answer = (description: string, schema: z.ZodType) => ({
  description,
  content: { 'application/json': { schema } },
});

/** The error answers a route can give, each with the contract's error body. */
export const errorAnswers = (...statuses: ErrorStatus[]) =>
  Object.fromEntries(statuses.map((s) => [s, answer(ERROR_STATUSES[s], errorBody)]));

const names = z.array(z.string());

/** `populate[]` and `fields[]`, on lists and on a record's GET alike (contract §4). */
export const RECORD_QUERY = z.object({
  'populate[]': names.optional().meta({ description: 'References to expand, by field name' }),
  'fields[]': names.optional().meta({ description: 'Fields to answer with (id always)' }),
});

/** A list's query (contract §4), as the list parser reads it (listQuerystring gives it its list). */
export const LIST_QUERY = RECORD_QUERY.extend({
  page: z.number().int().min(1).optional().meta({ description: '1-based page' }),
  pageSize: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .optional()
    .meta({ description: 'Default 100 (also page_size)' }),
  sort: z.string().optional().meta({ description: 'field or -field; default id' }),
  search: z.string().optional(),
  'searchFields[]': names.optional().meta({ description: 'Text fields only' }),
  query: z.record(z.string(), z.unknown()).optional().meta({
    description:
      'query[field][$op]=value with $eq $ne $gt $gte $lt $lte $in $between (deepObject style)',
  }),
});

/** A lookup list's query: a list's, without populate[] (only the agency list has names). */
export const LOOKUP_QUERY = LIST_QUERY.omit({ 'populate[]': true });

/** A POST that creates: `Idempotency-Key` replays its answer (contract §9). */
export const IDEMPOTENCY_HEADERS = z.object({
  'Idempotency-Key': z
    .string()
    .max(200)
    .optional()
    .meta({ description: 'Replays the answer for 24 h per agency' }),
});

/** The schema of each route of an entity's resource: list, create, get, update, delete. */
export function entityRouteSchemas<C extends z.ZodType, U extends z.ZodType>(
  { noun, openapi }: Pick<EntityFacts, 'noun' | 'openapi'>,
  { record, create, update, list: listAnswer }: EntityApiSchemas<C, U>,
  list: ListSpec,
) {
  const { name, tag } = openapi;
  const params = recordIdParams(noun);
  return {
    list: {
      tags: [tag],
      querystring: listQuerystring(LIST_QUERY, list),
      response: {
        200: answer(`${name} records of the caller's agency`, listAnswer),
        ...errorAnswers('400', '401', '422'),
      },
    },
    create: {
      tags: [tag],
      headers: IDEMPOTENCY_HEADERS,
      body: create,
      response: {
        201: answer(`Created ${name}`, record),
        ...errorAnswers('400', '401', '403', '409', '413', '415', '422'),
      },
    },
    get: {
      tags: [tag],
      params,
      // populate[] and fields[] read as the list reads them.
      querystring: listQuerystring(RECORD_QUERY, list),
      response: { 200: answer(name, record), ...errorAnswers('401', '404', '422') },
    },
    update: {
      tags: [tag],
      description:
        'Changes the fields sent. A record as GET answered it may be sent back: fields a client ' +
        'cannot set (id, dates, populated references as {id, …}) are ignored (contract §6).',
      params,
      body: update,
      response: {
        200: answer(`Updated ${name}`, record),
        ...errorAnswers('400', '401', '403', '404', '409', '413', '415', '422'),
      },
    },
    /** Only for a deletable entity: the others have no DELETE route. */
    delete: {
      tags: [tag],
      params,
      response: {
        200: answer('Retired (managers only)', record),
        ...errorAnswers('401', '403', '404'),
      },
    },
  };
}

export type EntityRouteSchemas<C extends z.ZodType, U extends z.ZodType> = ReturnType<
  typeof entityRouteSchemas<C, U>
>;

/**
 * Each entity's list grammar: its SQL columns, so written with its store, per entity (what the
 * registry cannot say). Everything else of its routes' schemas comes from the registry.
 */
export const ENTITY_LIST_SPECS: Record<Entity, ListSpec> = {
  site: SITE_LIST,
  collection: COLLECTION_LIST,
  pool: POOL_LIST,
  poolTest: POOL_TEST_LIST,
};

/** Each entity's route schemas, typed per entity (a handler reads its own body type). */
export const ENTITY_ROUTES = Object.fromEntries(
  ENTITIES.map((e) => [
    e,
    entityRouteSchemas<z.ZodType, z.ZodType>(ENTITY[e], ENTITY_API[e], ENTITY_LIST_SPECS[e]),
  ]),
) as unknown as {
  [E in Entity]: EntityRouteSchemas<EntityApi[E]['create'], EntityApi[E]['update']>;
};
