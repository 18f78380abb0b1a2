import { parse, stringify } from 'qs';

/**
 * The query string of a records list (contract §4), written and read in one place: the tablet
 * and the BFF write it with `encodeListQuery`, the records service reads it with
 * `decodeListQuery`. Mongoose-style bracket keys, as the public API and its R client take them:
 * `query[surv_year][$between][0]=2025`, `query[site][$in][0]=4`, `fields[]=id`, `sort=-id`.
 */

/** What the service reads of a query string at most; past any of them → 400 bad_request. */
export const LIST_QUERY_LIMITS = {
  /** Characters of the raw query string. */
  length: 32_768,
  parameters: 1000,
  /** Bracket levels below a top-level name: `query[field][$op][0]` is 3. */
  depth: 5,
  /** Items of one list (`$in`, `fields[]`). */
  items: 1000,
} as const;

export const LIST_OPERATORS = [
  '$eq',
  '$ne',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$in',
  '$between',
] as const;
export type ListOperator = (typeof LIST_OPERATORS)[number];

type Scalar = string | number;
/** One field's filter: a value ($eq), a list of values ($in), or operators with their operands. */
export type FieldFilter =
  Scalar | readonly Scalar[] | Partial<Record<ListOperator, Scalar | readonly Scalar[]>>;

/** The parameters a client of the records API sends with a list request. */
export type ListParams = {
  page?: number;
  pageSize?: number;
  sort?: string;
  /** `fields[]`: the fields of each row (`id` always comes). */
  fields?: readonly string[];
  populate?: readonly string[];
  search?: string;
  searchFields?: readonly string[];
  query?: Readonly<Record<string, FieldFilter>>;
  /** A resource's own parameters (`type=tick` on pools). */
  [extra: string]: unknown;
};

/**
 * The query string (without `?`) for `params`. Filters are written with indices
 * (`query[pool][$in][0]=4`, what the contract names); plain lists with `[]` (`fields[]=id`), as
 * every public client sends them. Brackets and `$` are percent-encoded; undefined values are left
 * out, so a caller can spread optional filters.
 */
export function encodeListQuery(params: ListParams): string {
  const { query, ...rest } = params;
  const lists = stringify(rest, { arrayFormat: 'brackets', skipNulls: true });
  const filters = query ? stringify({ query }, { arrayFormat: 'indices', skipNulls: true }) : '';
  return [lists, filters].filter(Boolean).join('&');
}

/** A decoded query string: names to a value, a list of values, or a nested level. */
export type QueryValue = string | QueryValue[] | QueryTree;
export type QueryTree = { [name: string]: QueryValue };

/**
 * A query string the service cannot read as one (`bad_request`), or a name it refuses before
 * reading (`unknown_name`, with the parameter's path: a name no record has, such as `__proto__`).
 */
export class ListQueryError extends Error {
  constructor(
    readonly kind: 'bad_request' | 'unknown_name',
    message: string,
    readonly path?: string,
  ) {
    super(message);
  }
}

/** A parameter name: a top-level name and bracket segments, nothing around them. */
const KEY = /^([^[\]]+)((?:\[[^[\]]*\])*)$/;
const SEGMENT = /\[([^[\]]*)\]/g;

function strictDecode(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    throw new ListQueryError('bad_request', 'The query string has a malformed %-escape');
  }
}

/**
 * Checks a decoded parameter name. qs silently drops a `__proto__` segment (its guard against
 * prototype pollution); the service must instead refuse it as the unknown name it is (422, as
 * for `constructor` or `toString`), so it is caught here with the path its 422 names.
 */
function checkKey(key: string): void {
  const match = KEY.exec(key);
  if (!match) throw new ListQueryError('bad_request', `Malformed query parameter name "${key}"`);
  const path = [match[1], ...[...match[2].matchAll(SEGMENT)].map((m) => m[1])];
  const at = path.indexOf('__proto__');
  if (at === -1) return;
  const named = path[0] === 'query' ? path.slice(0, at + 1).join('.') : path[0];
  throw new ListQueryError('unknown_name', `Unknown name "__proto__" in ${key}`, named);
}

/**
 * Reads a query string (the part after `?`, or a whole URL) into a tree: `a[b][0]=x` →
 * `{a: {b: ['x']}}`, `populate[]=a&populate[]=b` and `a=1&a=2` → lists. Objects have no
 * prototype, so any name is an own key or absent. Throws ListQueryError for a malformed escape
 * or name, a name asked to be a value and a level at once (`a=1&a[b]=2`), or anything past
 * LIST_QUERY_LIMITS.
 */
export function decodeListQuery(rawOrUrl: string): QueryTree {
  const at = rawOrUrl.indexOf('?');
  const raw = at !== -1 ? rawOrUrl.slice(at + 1) : rawOrUrl.startsWith('/') ? '' : rawOrUrl;
  if (raw.length > LIST_QUERY_LIMITS.length)
    throw new ListQueryError('bad_request', 'The query string is too long');
  let tree: QueryTree;
  try {
    tree = parse(raw, {
      depth: LIST_QUERY_LIMITS.depth,
      strictDepth: true,
      parameterLimit: LIST_QUERY_LIMITS.parameters,
      arrayLimit: LIST_QUERY_LIMITS.items,
      throwOnLimitExceeded: true,
      plainObjects: true,
      allowPrototypes: true,
      allowDots: false,
      comma: false,
      decoder: (text, _default, _charset, type) => {
        const decoded = strictDecode(text);
        if (type === 'key') checkKey(decoded);
        return decoded;
      },
    }) as QueryTree;
  } catch (err) {
    if (err instanceof ListQueryError) throw err;
    throw new ListQueryError('bad_request', limitMessage(err));
  }
  assertOneShape(tree, '');
  return tree;
}

function limitMessage(err: unknown): string {
  const text = err instanceof Error ? err.message : '';
  if (/depth/i.test(text))
    return `Query parameters may be nested ${LIST_QUERY_LIMITS.depth} deep at most`;
  if (/array/i.test(text))
    return `A list in the query string may hold ${LIST_QUERY_LIMITS.items} items at most`;
  if (/parameter/i.test(text)) return `At most ${LIST_QUERY_LIMITS.parameters} query parameters`;
  return 'The query string cannot be read';
}

/**
 * qs merges a name given both as a value and as a level (`query[site]=4&query[site][$gt]=2`) into
 * a list holding an object: the request says two things of one name, so it is refused as one
 * that cannot be read, not guessed at.
 */
function assertOneShape(node: QueryValue, path: string): void {
  if (typeof node === 'string') return;
  if (Array.isArray(node)) {
    node.forEach((child, i) => assertOneShape(child, `${path}[${i}]`));
    const values = node.filter((v) => typeof v === 'string').length;
    if (values > 0 && values < node.length)
      throw new ListQueryError(
        'bad_request',
        `Query parameter "${path}" conflicts with another parameter`,
      );
    return;
  }
  for (const [name, child] of Object.entries(node))
    assertOneShape(child, path ? `${path}[${name}]` : name);
}
