import { HttpError } from './http-error';

/**
 * A record id as a path writes it: a positive integer, without leading zeros (one path per
 * record), at most 16 digits (any JavaScript-safe integer an upstream might use).
 */
const PATH_ID = /^[1-9]\d{0,15}$/;

/** The records service stores ids as PostgreSQL `integer`. */
const MAX_STORED_ID = 2_147_483_647;

/** Whether a path segment can name a record (the BFF forwards only such ids). */
export function isPathId(text: string): boolean {
  return PATH_ID.test(text);
}

/**
 * The `{id}` of a record path of the records service. Anything else names no record: 404
 * "`what` not found" (never a 400 or a database error for an id out of range).
 */
export function parsePathId(raw: unknown, what: string): number {
  const text = String(raw ?? '');
  const id = isPathId(text) ? Number(text) : NaN;
  if (!(id <= MAX_STORED_ID)) throw new HttpError(404, 'not_found', `${what} not found`);
  return id;
}
