import { z } from 'zod';
import {
  errorBody,
  LOOKUP_LISTS,
  LOOKUP_NAMES,
  loginRequest,
  loginResponse,
  whoAmI,
  type LookupName,
} from '#shared';
import { ENTITIES, ENTITY } from '#shared/entities';
import {
  agencyTokenRecord,
  createdUser,
  passwordChange,
  temporaryPassword,
  userCreate,
  userRecord,
  userUpdate,
} from '#shared/schemas/people';
import { ENTITY_API, listOf, nameEntitySchemas } from './entity-api';
import { nameSchema, schemaNames } from './schema-names';

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
 * Every schema the service's OpenAPI document names, under its component name, in zod's global
 * registry. The components are generated from the same zod schemas the routes validate with,
 * so the document cannot drift from what is enforced. Named once, when this module loads.
 */
export const SERVICE_NAMES = schemaNames();

nameSchema(SERVICE_NAMES, errorBody, 'Error');
nameSchema(SERVICE_NAMES, loginRequest, 'LoginRequest', 'input');
nameSchema(SERVICE_NAMES, loginResponse, 'LoginResponse');
nameSchema(SERVICE_NAMES, whoAmI, 'WhoAmI');
nameSchema(SERVICE_NAMES, issuedAgencyToken, 'AgencyToken');
nameSchema(SERVICE_NAMES, revokedAgencyToken, 'AgencyTokenRevoked');
nameSchema(SERVICE_NAMES, revokedOwnToken, 'TokenRevoked');
nameSchema(SERVICE_NAMES, userRecord, 'User');
nameSchema(SERVICE_NAMES, userList, 'UserList');
nameSchema(SERVICE_NAMES, userCreate, 'UserCreate', 'input');
nameSchema(SERVICE_NAMES, userUpdate, 'UserUpdate', 'input');
nameSchema(SERVICE_NAMES, createdUser, 'UserCreated');
nameSchema(SERVICE_NAMES, temporaryPassword, 'TemporaryPassword');
nameSchema(SERVICE_NAMES, passwordChange, 'PasswordChange', 'input');
nameSchema(SERVICE_NAMES, passwordChanged, 'PasswordChanged');
nameSchema(SERVICE_NAMES, agencyTokenRecord, 'AgencyTokenListed');
nameSchema(SERVICE_NAMES, agencyTokenList, 'AgencyTokenList');
for (const entity of ENTITIES)
  nameEntitySchemas(SERVICE_NAMES, ENTITY[entity].openapi.name, ENTITY_API[entity]);
for (const lookup of LOOKUP_NAMES) {
  nameSchema(SERVICE_NAMES, LOOKUP_LISTS[lookup].schema, `Lookup_${lookup}`);
  nameSchema(SERVICE_NAMES, LOOKUP_LIST_RESPONSES.get(lookup)!, `Lookup_${lookup}List`);
}
