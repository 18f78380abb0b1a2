import { z } from 'zod';
import { MAX_STORED_INT } from '#shared/schemas/common';
import { HttpError } from './http-error';

/**
 * A record id as a path writes it: a positive integer, without leading zeros (one path per
 * record), at most 16 digits (any JavaScript-safe integer an upstream might use).
 */
const PATH_ID = /^[1-9]\d{0,15}$/;

/** Whether a path segment can name a record (the BFF forwards only such ids). */
export function isPathId(text: string): boolean {
  return PATH_ID.test(text);
}

/** The record each `{id}` params schema names, for its 404. */
const NAMED_BY = new WeakMap<z.ZodType, string>();

/**
 * The params of a record path `…/:id`, read as the stored id (a number). Anything else names no
 * record: 404 "`what` not found" (never a 400 or a database error for an id out of range), so
 * a route with these params never runs for an id that cannot exist.
 */
export function recordIdParams(what: string) {
  const params = z.object({
    id: z
      .string()
      .regex(PATH_ID)
      .transform(Number)
      // The records service stores ids as PostgreSQL `integer`.
      .pipe(z.number().max(MAX_STORED_INT))
      .meta({ description: `The ${what.toLowerCase()}'s id` }),
  });
  NAMED_BY.set(params, what);
  return params;
}

/** The 404 of params that name no record, if `schema` is a record's params. */
export function notFoundFor(schema: z.ZodType): HttpError | undefined {
  const what = NAMED_BY.get(schema);
  return what === undefined ? undefined : new HttpError(404, 'not_found', `${what} not found`);
}
