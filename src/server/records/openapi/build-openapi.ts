import { z } from 'zod';
import {
  collection,
  collectionCreate,
  collectionUpdate,
  errorBody,
  LOOKUP_LISTS,
  loginRequest,
  loginResponse,
  pool,
  poolCreate,
  poolTest,
  poolTestCreate,
  poolTestUpdate,
  poolUpdate,
  site,
  siteCreate,
  siteUpdate,
  whoAmI,
} from '../../../shared';
import { ENTITIES, ENTITY, v1Path, type Entity } from '#shared/entities';

type JsonSchema = Record<string, unknown>;

/** zod → JSON Schema 2020-12 (OpenAPI 3.1's dialect). Refinements are not representable; the service still applies them. */
function schemaOf(s: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, {
    target: 'draft-2020-12',
    unrepresentable: 'any',
    io,
  }) as JsonSchema;
  return rest;
}

const ERROR_STATUSES: Record<string, string> = {
  '400': 'Malformed JSON or query string (bad_request)',
  '401': 'No, unknown, revoked (unauthenticated) or expired (token_expired) token',
  '403': 'Not allowed (forbidden), or plain HTTP from another machine (https_required)',
  '404': 'Unknown id or a record of another agency (not_found)',
  '409': 'Conflict: site_code_taken, collection_num_taken, pool_num_taken, idempotency_in_flight',
  '413': 'Body over 1 MiB (payload_too_large)',
  '415': 'Body not application/json (unsupported_media_type)',
  '422': 'Validation failed; `fields` lists every failing field',
};

const errorResponses = (...codes: string[]) =>
  Object.fromEntries(
    codes.map((c) => [
      c,
      {
        description: ERROR_STATUSES[c],
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    ]),
  );

const json = (ref: string) => ({
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } },
});
const list = (ref: string) => ({
  description: '{rows, count}: count is every match before paging',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['rows', 'count'],
        properties: {
          rows: { type: 'array', items: { $ref: `#/components/schemas/${ref}` } },
          count: { type: 'integer' },
        },
      },
    },
  },
});

const LIST_PARAMETERS = [
  {
    name: 'page',
    in: 'query',
    schema: { type: 'integer', minimum: 1 },
    description: '1-based page',
  },
  {
    name: 'pageSize',
    in: 'query',
    schema: { type: 'integer', minimum: 1, maximum: 1000 },
    description: 'Default 100 (also page_size)',
  },
  {
    name: 'sort',
    in: 'query',
    schema: { type: 'string' },
    description: 'field or -field; default id',
  },
  { name: 'search', in: 'query', schema: { type: 'string' } },
  {
    name: 'searchFields[]',
    in: 'query',
    schema: { type: 'array', items: { type: 'string' } },
    description: 'Text fields only',
  },
  { name: 'fields[]', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
  { name: 'populate[]', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
  {
    name: 'query',
    in: 'query',
    style: 'deepObject',
    explode: true,
    schema: { type: 'object' },
    description: 'query[field][$op]=value with $eq $ne $gt $gte $lt $lte $in $between',
  },
];
const ID = [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }];
const IDEMPOTENCY = [
  {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    schema: { type: 'string', maxLength: 200 },
    description: 'Replays the answer for 24 h per agency',
  },
];

/** The record schemas of each entity: the response, the create body and the update body. */
const ENTITY_SCHEMAS: Record<Entity, [record: z.ZodType, create: z.ZodType, update: z.ZodType]> = {
  site: [site, siteCreate, siteUpdate],
  collection: [collection, collectionCreate, collectionUpdate],
  pool: [pool, poolCreate, poolUpdate],
  poolTest: [poolTest, poolTestCreate, poolTestUpdate],
};

/** The list/create path and the item path of an entity's resource. */
function resource(entity: Entity) {
  const { openapi, deletable } = ENTITY[entity];
  const { name, tag } = openapi;
  const base = v1Path(entity);
  const item = {
    get: {
      tags: [tag],
      parameters: [
        ...ID,
        { name: 'populate[]', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
      ],
      responses: {
        '200': { description: name, ...json(name) },
        ...errorResponses('401', '404', '422'),
      },
    },
    put: {
      tags: [tag],
      parameters: ID,
      requestBody: { required: true, ...json(`${name}Update`) },
      responses: {
        '200': { description: `Updated ${name}`, ...json(name) },
        ...errorResponses('400', '401', '403', '404', '409', '413', '415', '422'),
      },
    },
    ...(deletable
      ? {
          delete: {
            tags: [tag],
            parameters: ID,
            responses: {
              '200': { description: 'Retired (managers only)', ...json(name) },
              ...errorResponses('401', '403', '404'),
            },
          },
        }
      : {}),
  };
  return {
    [base]: {
      get: {
        tags: [tag],
        parameters: LIST_PARAMETERS,
        responses: { '200': list(name), ...errorResponses('400', '401', '422') },
      },
      post: {
        tags: [tag],
        parameters: IDEMPOTENCY,
        requestBody: { required: true, ...json(`${name}Create`) },
        responses: {
          '201': { description: `Created ${name}`, ...json(name) },
          ...errorResponses('400', '401', '403', '409', '413', '415', '422'),
        },
      },
    },
    [`${base}/{id}`]: item,
  };
}

/** OpenAPI 3.1 document of the records service, generated from the shared zod schemas. */
export function buildOpenApi(): JsonSchema {
  const schemas: Record<string, JsonSchema> = {
    Error: schemaOf(errorBody, 'output'),
    LoginRequest: schemaOf(loginRequest, 'input'),
    LoginResponse: schemaOf(loginResponse, 'output'),
    WhoAmI: schemaOf(whoAmI, 'output'),
  };
  for (const entity of ENTITIES) {
    const { name } = ENTITY[entity].openapi;
    const [record, create, update] = ENTITY_SCHEMAS[entity];
    schemas[name] = schemaOf(record, 'output');
    schemas[`${name}Create`] = schemaOf(create, 'input');
    schemas[`${name}Update`] = schemaOf(update, 'input');
  }
  const lookupPaths: Record<string, unknown> = {};
  for (const [name, { path, schema }] of Object.entries(LOOKUP_LISTS)) {
    const ref = `Lookup_${name}`;
    schemas[ref] = schemaOf(schema, 'output');
    // Paged like every list (contract §5); only the agency list has populate[] names.
    lookupPaths[path] = {
      get: {
        tags: ['lookups'],
        parameters:
          name === 'agency'
            ? LIST_PARAMETERS
            : LIST_PARAMETERS.filter((p) => p.name !== 'populate[]'),
        responses: { '200': list(ref), ...errorResponses('400', '401', '422') },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Trapline records service',
      version: '1.0.0',
      description:
        'Arthropod Surveillance Records Service as Trapline implements it (contract.md).',
    },
    components: { schemas, securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
    paths: {
      '/login': {
        post: {
          tags: ['auth'],
          security: [],
          requestBody: { required: false, ...json('LoginRequest') },
          parameters: [
            { name: 'username', in: 'query', schema: { type: 'string' } },
            { name: 'password', in: 'query', schema: { type: 'string' } },
          ],
          responses: {
            '200': { description: 'A login token valid for one hour', ...json('LoginResponse') },
            ...errorResponses('401', '422'),
            '429': { description: 'Too many attempts (rate_limited, Retry-After)' },
          },
        },
      },
      '/v1/me': {
        get: {
          tags: ['auth'],
          responses: {
            '200': { description: 'Who the token acts for', ...json('WhoAmI') },
            ...errorResponses('401'),
          },
        },
      },
      '/v1/me/token': {
        delete: {
          tags: ['auth'],
          description:
            'Signs out: revokes the login token sent with this request (a Trapline extension); ' +
            'the token then gets 401. Agency tokens are revoked with /v1/agency/token/{id} (403 here).',
          responses: {
            '200': { description: '{revoked: true}' },
            ...errorResponses('401', '403'),
          },
        },
      },
      '/v1/agency/token': {
        post: {
          tags: ['auth'],
          responses: {
            '201': { description: '{id, token}: the token is shown once' },
            ...errorResponses('401', '403'),
          },
        },
      },
      '/v1/agency/token/{id}': {
        delete: {
          tags: ['auth'],
          parameters: ID,
          responses: { '200': { description: 'Revoked' }, ...errorResponses('401', '403', '404') },
        },
      },
      ...Object.assign({}, ...ENTITIES.map(resource)),
      ...lookupPaths,
    },
  };
}
