import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { ENTITIES } from '#shared/entities';
import { ENTITY_BODIES } from '#shared/schemas/entity-schemas';
import { HttpError } from '../http/http-error';
import { notFoundFor } from '../http/path-id';
import { parseBody, validationFailed } from './errors';
import { fieldsFromZod } from '#shared/schemas/error';
import type { QueryTree } from '#shared/list-query';
import { putBody } from './put-body';
import { contractErrorOf, parseListQuery } from './list/parse-list-query';
import { LIST_SPEC_OF, unreadableQueryString } from './list/list-querystring';

type Reader = (data: unknown) => { value?: unknown; error?: Error };

/**
 * Runs `read`; the contract error it throws (an HttpError) is the route's answer. Anything else
 * is a fault, thrown on: Fastify answers it as a 500, which the error handler logs (a bug in a
 * rule must not pass for the client's mistake).
 */
const reading =
  (read: (data: unknown) => unknown): Reader =>
  (data) => {
    try {
      return { value: read(data) };
    } catch (error) {
      if (error instanceof HttpError) return { error };
      throw error;
    }
  };

/** The entity whose update body `schema` is: a PUT body of it is read as GET returned it. */
const putEntityOf = (schema: z.ZodType) => ENTITIES.find((e) => ENTITY_BODIES[e].update === schema);

/**
 * Reads a body with its route's zod schema, answering the contract's 422 (`parseBody`: every
 * failing field listed, unstorable text refused). A PUT body is first reduced to what a client
 * can change (`putBody`, contract §6). An optional body schema lets a request without a body
 * through as `undefined` (POST /login may carry its credentials in the query string).
 */
function bodyReader(schema: z.ZodType, method: string): Reader {
  const putEntity = method === 'PUT' ? putEntityOf(schema) : undefined;
  const bodyMayBeAbsent = schema.safeParse(undefined).success;
  return reading((data) => {
    if ((data === null || data === undefined) && bodyMayBeAbsent) return undefined;
    return parseBody(schema, putEntity ? putBody(putEntity, data) : data);
  });
}

/** Params read with their schema; a record id that cannot exist is that record's 404. */
const paramsReader =
  (schema: z.ZodType): Reader =>
  (data) => {
    const read = schema.safeParse(data);
    if (read.success) return { value: read.data };
    return { error: notFoundFor(schema) ?? new Error('Path parameters do not match the route') };
  };

/**
 * The query string, as the codec read it (list/list-querystring.ts), validated at the route. A
 * list's schema is read with its list's grammar (every failing parameter in one 422, exactly as
 * the list answers it); any other with its zod schema (a 422 listing every failing parameter).
 * Either way the handler gets the tree; a list's handler builds its SQL from it.
 */
function querystringReader(schema: z.ZodType): Reader {
  const spec = LIST_SPEC_OF.get(schema);
  return reading((data) => {
    const unreadable = unreadableQueryString(data);
    if (unreadable) throw contractErrorOf(unreadable);
    if (spec) {
      parseListQuery(data as QueryTree, spec);
      return data;
    }
    const read = schema.safeParse(data);
    if (!read.success) throw validationFailed(fieldsFromZod(read.error, data));
    return read.data;
  });
}

/**
 * Route schemas are zod schemas, the single source of what a route accepts and answers: the
 * OpenAPI document is generated from them (openapi/swagger.ts) and requests are read with them
 * here, in Fastify's validation step (after authentication and the idempotency claim, before
 * the handler). Bodies, params and query strings are read with the contract's errors. A headers
 * schema only documents: `Idempotency-Key` is read by the idempotency hook.
 * Answers are sent as they are: a schema never strips a field (`fields[]` and `populate[]`
 * shape them per request).
 */
export const contractValidator: FastifySchemaCompiler<z.ZodType> = ({
  schema,
  httpPart,
  method,
}) => {
  if (httpPart === 'body') return bodyReader(schema, method);
  if (httpPart === 'params') return paramsReader(schema);
  if (httpPart === 'querystring') return querystringReader(schema);
  return () => ({});
};

export function useRouteSchemas(app: FastifyInstance): void {
  app.setValidatorCompiler(contractValidator);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
}
