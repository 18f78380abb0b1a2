import { z } from 'zod';
import { decodeListQuery, ListQueryError, type QueryTree } from '#shared/list-query';
import type { ListSpec } from './list-spec';

/**
 * The records service reads every query string once, with the shared codec (`decodeListQuery`),
 * as Fastify's query-string parser; route schemas then validate the tree it gives.
 *
 * A query string the codec cannot read must still be answered by the route with the contract's
 * 400 (or 422 for a refused name), never by the router: Fastify's parser may not throw, so the
 * refusal is carried to the route's validation step under this key instead of a tree (a symbol:
 * no query string can name it).
 */
const UNREADABLE = Symbol('unreadable query string');
type Unreadable = { [UNREADABLE]: ListQueryError };

/** Fastify's `querystringParser` for the records service: the tree, or why it cannot be read. */
export function readQueryString(raw: string): QueryTree | Unreadable {
  try {
    return decodeListQuery(`?${raw}`);
  } catch (err) {
    if (err instanceof ListQueryError) return { [UNREADABLE]: err };
    throw err;
  }
}

/** Why the query string `req.query` stands for could not be read, if it could not. */
export function unreadableQueryString(query: unknown): ListQueryError | undefined {
  return typeof query === 'object' && query !== null && UNREADABLE in query
    ? (query as Unreadable)[UNREADABLE]
    : undefined;
}

/**
 * The list grammar each list route's query-string schema stands for. The zod object of a list
 * query (LIST_QUERY and its variants) documents the parameters in the OpenAPI document; the
 * parameters a list takes also depend on its fields (`query[field]`, `sort`, `fields[]`,
 * `populate[]`), so the route's validator reads the query string with this spec
 * (`parseListQuery`), answering one 422 that lists every failing parameter (contract §2, §4).
 */
export const LIST_SPEC_OF = z.registry<ListSpec>();

/** `documented`, as the query-string schema of a route listing with `spec`. */
export function listQuerystring<S extends z.ZodObject>(documented: S, spec: ListSpec): S {
  // A schema of its own per spec: one documented object serves many lists.
  const schema = documented.extend({}) as unknown as S;
  LIST_SPEC_OF.add(schema, spec);
  return schema;
}
