import { z } from 'zod';
import {
  collection,
  ENTITY_BODIES,
  errorBody,
  LOOKUP_LISTS,
  LOOKUP_NAMES,
  loginRequest,
  loginResponse,
  pool,
  poolTest,
  site,
  whoAmI,
  type LookupName,
} from '#shared';
import { ENTITIES, ENTITY, type Entity } from '#shared/entities';
import {
  agencyTokenRecord,
  createdUser,
  passwordChange,
  temporaryPassword,
  userCreate,
  userRecord,
  userUpdate,
} from '#shared/schemas/people';

type JsonSchema = Record<string, unknown>;

/** Each entity's record as the service answers it (its bodies are ENTITY_BODIES). */
export const ENTITY_RECORDS: Record<Entity, z.ZodType> = { site, collection, pool, poolTest };

/** `{rows, count}` of a list; count is every match before paging (contract §4). */
const listOf = (row: z.ZodType) =>
  z
    .object({ rows: z.array(row), count: z.number().int() })
    .meta({ description: '{rows, count}: count is every match before paging' });

export const ENTITY_LISTS: Record<Entity, z.ZodType> = {
  site: listOf(site),
  collection: listOf(collection),
  pool: listOf(pool),
  poolTest: listOf(poolTest),
};

export const LOOKUP_LIST_RESPONSES = new Map<LookupName, z.ZodType>(
  LOOKUP_NAMES.map((lookup) => [lookup, listOf(LOOKUP_LISTS[lookup].schema)]),
);

/** POST /v1/agency/token's answer: the token is shown this once. */
export const issuedAgencyToken = z.object({ id: z.number().int(), token: z.string() });
export const revokedAgencyToken = z.object({ id: z.number().int(), revoked: z.literal(true) });
export const revokedOwnToken = z.object({ revoked: z.literal(true) });
export const userList = z.object({ rows: z.array(userRecord), count: z.number().int() });
export const agencyTokenList = z.object({
  rows: z.array(agencyTokenRecord),
  count: z.number().int(),
});
export const passwordChanged = z.object({ changed: z.literal(true) });

/**
 * Every schema the OpenAPI document names, under its component name. A route's body or answer
 * that is one of these is written as a `$ref` to it; the components are generated from the same
 * zod schemas the routes validate with, so the document cannot drift from what is enforced.
 */
const NAMES = z.registry<{ id: string }>();
/** Names of request bodies: generated as the input a client sends (defaults optional). */
const INPUT_NAMES = new Set<string>();

function name(schema: z.ZodType, id: string, io: 'input' | 'output' = 'output'): void {
  NAMES.add(schema, { id });
  if (io === 'input') INPUT_NAMES.add(id);
}

name(errorBody, 'Error');
name(loginRequest, 'LoginRequest', 'input');
name(loginResponse, 'LoginResponse');
name(whoAmI, 'WhoAmI');
name(issuedAgencyToken, 'AgencyToken');
name(revokedAgencyToken, 'AgencyTokenRevoked');
name(revokedOwnToken, 'TokenRevoked');
name(userRecord, 'User');
name(userList, 'UserList');
name(userCreate, 'UserCreate', 'input');
name(userUpdate, 'UserUpdate', 'input');
name(createdUser, 'UserCreated');
name(temporaryPassword, 'TemporaryPassword');
name(passwordChange, 'PasswordChange', 'input');
name(passwordChanged, 'PasswordChanged');
name(agencyTokenRecord, 'AgencyTokenListed');
name(agencyTokenList, 'AgencyTokenList');
for (const entity of ENTITIES) {
  const { name: recordName } = ENTITY[entity].openapi;
  const { create, update } = ENTITY_BODIES[entity];
  name(ENTITY_RECORDS[entity], recordName);
  name(create, `${recordName}Create`, 'input');
  name(update, `${recordName}Update`, 'input');
  name(ENTITY_LISTS[entity], `${recordName}List`);
}
for (const lookup of LOOKUP_NAMES) {
  name(LOOKUP_LISTS[lookup].schema, `Lookup_${lookup}`);
  name(LOOKUP_LIST_RESPONSES.get(lookup)!, `Lookup_${lookup}List`);
}

const ref = (id: string) => `#/components/schemas/${id}`;

/** The component name of a named schema, if it is one. */
const componentName = (schema: unknown): string | undefined =>
  schema instanceof z.ZodType ? NAMES.get(schema)?.id : undefined;

/** zod → JSON Schema 2020-12 (OpenAPI 3.1's dialect); refinements are not representable. */
const OPTIONS = { target: 'draft-2020-12', unrepresentable: 'any' } as const;

const withoutIdentity = ({ $schema: _s, $id: _i, ...rest }: JsonSchema): JsonSchema => rest;

let components: Record<string, JsonSchema> | undefined;

/**
 * components.schemas: every named schema, bodies as input and answers as output. The names are
 * fixed when this module loads, so the conversion runs once per process, not once per app.
 */
export function componentSchemas(): Record<string, JsonSchema> {
  if (components) return components;
  const asInput = z.toJSONSchema(NAMES, { ...OPTIONS, io: 'input', uri: ref }).schemas;
  const asOutput = z.toJSONSchema(NAMES, { ...OPTIONS, io: 'output', uri: ref }).schemas;
  components = Object.fromEntries(
    Object.keys(asOutput).map((id) => [
      id,
      withoutIdentity((INPUT_NAMES.has(id) ? asInput : asOutput)[id]),
    ]),
  );
  return components;
}

/** A route's schema as the document writes it: a `$ref` to a named one, else inline. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const id = componentName(schema);
  return id ? { $ref: ref(id) } : withoutIdentity(z.toJSONSchema(schema, { ...OPTIONS, io }));
}
