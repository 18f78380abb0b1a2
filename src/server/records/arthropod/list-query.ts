import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../../shared/schemas/list';
import type { FieldError } from '../../../shared/schemas/error';
import { ApiError, validationFailed } from '../errors';
import { populateNames } from './populate-names';

export type FieldType = 'int' | 'number' | 'text' | 'date' | 'bool';
/** A listable field: the SQL expression it reads (fixed here, never from a request) and its type. */
export type FieldSpec = { sql: string; type: FieldType };
export type ListSpec = {
  fields: Record<string, FieldSpec>;
  /** Fields of a serialised record that `fields[]` may name but that cannot be filtered or sorted. */
  outputOnly: readonly string[];
  populate: readonly string[];
};

const OPERATORS = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$between'] as const;
type Operator = (typeof OPERATORS)[number];
export type Condition = { field: string; op: Operator; values: unknown[] };

export type ListQuery = {
  page: number;
  pageSize: number;
  sort: { field: string; desc: boolean };
  fields: string[] | null;
  search: { text: string; fields: string[] } | null;
  conditions: Condition[];
  populate: Set<string>;
  params: URLSearchParams;
};

const QUERY_KEY = /^query\[([^[\]]+)\](?:\[([^[\]]*)\])?(?:\[(\d*)\])?$/;
const ARRAY_KEY = (name: string) => new RegExp(`^${name}(\\[\\d*\\])?$`);

/**
 * The shared GET parameters of contract §4, read from a URL's query string and checked against
 * the resource's fields: unknown fields or operators, non-string search fields and page sizes
 * over the maximum → 422 listing each problem; a malformed `query[...]` key → 400.
 */
export function parseListQuery(url: string, spec: ListSpec): ListQuery {
  const q = url.indexOf('?');
  const params = new URLSearchParams(q >= 0 ? url.slice(q + 1) : '');
  const errors: FieldError[] = [];
  const known = (field: string, path: string) => {
    if (field in spec.fields) return true;
    errors.push({
      path,
      message: `Unknown field '${field}'; use one of ${Object.keys(spec.fields).join(', ')}`,
    });
    return false;
  };

  const page = positiveInt(params.get('page'), 1, 'page', errors);
  const pageSize = positiveInt(
    params.get('pageSize') ?? params.get('page_size'),
    DEFAULT_PAGE_SIZE,
    'pageSize',
    errors,
  );
  if (pageSize > MAX_PAGE_SIZE)
    errors.push({ path: 'pageSize', message: `At most ${MAX_PAGE_SIZE} rows per page` });

  const sortRaw = params.get('sort') ?? 'id';
  const sort = { field: sortRaw.replace(/^[-+]/, ''), desc: sortRaw.startsWith('-') };
  known(sort.field, 'sort');

  const fieldsList = values(params, 'fields');
  const fields = fieldsList.length > 0 ? fieldsList : null;
  for (const f of fieldsList) if (!spec.outputOnly.includes(f)) known(f, 'fields');

  const text = params.get('search');
  let search: ListQuery['search'] = null;
  if (text !== null && text !== '') {
    const textFields = Object.entries(spec.fields)
      .filter(([, s]) => s.type === 'text')
      .map(([f]) => f);
    const named = values(params, 'searchFields');
    for (const f of named) {
      if (known(f, 'searchFields') && spec.fields[f].type !== 'text') {
        errors.push({
          path: 'searchFields',
          message: `'${f}' is not a text field; search only ${textFields.join(', ')}`,
        });
      }
    }
    search = { text, fields: named.length > 0 ? named : textFields };
  }

  const grouped = new Map<string, { field: string; op: Operator; values: string[] }>();
  for (const [key, value] of params) {
    if (!key.startsWith('query')) continue;
    const m = QUERY_KEY.exec(key);
    if (!m)
      throw new ApiError(
        400,
        'bad_request',
        `Cannot read the query parameter '${key}'; use query[field][$op]=value`,
      );
    const [, field, second, third] = m;
    // query[f]=v → $eq; query[f][0]=a → $in (no operator); query[f][$op]=v or query[f][$op][0]=v.
    let op: string = '$eq';
    if (second !== undefined && /^\d*$/.test(second)) {
      if (third !== undefined)
        throw new ApiError(400, 'bad_request', `Cannot read the query parameter '${key}'`);
      op = '$in';
    } else if (second !== undefined) op = second;
    if (!(OPERATORS as readonly string[]).includes(op)) {
      errors.push({
        path: `query.${field}`,
        message: `Unknown operator '${op}'; use one of ${OPERATORS.join(' ')}`,
      });
      continue;
    }
    if (!known(field, `query.${field}`)) continue;
    const k = `${field} ${op}`;
    const g = grouped.get(k) ?? { field, op: op as Operator, values: [] };
    g.values.push(value);
    grouped.set(k, g);
  }
  const conditions: Condition[] = [];
  for (const g of grouped.values()) {
    const path = `query.${g.field}`;
    if (g.op === '$between' && g.values.length !== 2) {
      errors.push({ path, message: '$between takes exactly two values: [0] and [1]' });
      continue;
    }
    if (g.op !== '$in' && g.op !== '$between' && g.values.length !== 1) {
      errors.push({ path, message: `${g.op} takes one value` });
      continue;
    }
    const typed = g.values.map((v) => typedValue(v, spec.fields[g.field].type));
    if (typed.some((v) => v === INVALID)) {
      errors.push({
        path,
        message: `Not a valid ${spec.fields[g.field].type} value for ${g.field}`,
      });
      continue;
    }
    conditions.push({ field: g.field, op: g.op, values: typed });
  }

  let populate = new Set<string>();
  try {
    populate = populateNames(url, spec.populate);
  } catch (e) {
    if (e instanceof ApiError && e.fields) errors.push(...e.fields);
    else throw e;
  }
  if (errors.length > 0) throw validationFailed(errors);
  return { page, pageSize, sort, fields, search, conditions, populate, params };
}

function values(params: URLSearchParams, name: string): string[] {
  const re = ARRAY_KEY(name);
  return [...params]
    .filter(([k]) => re.test(k))
    .flatMap(([, v]) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

function positiveInt(
  raw: string | null,
  fallback: number,
  path: string,
  errors: FieldError[],
): number {
  if (raw === null || raw === '') return fallback;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) {
    errors.push({ path, message: `${path} must be a whole number of at least 1` });
    return fallback;
  }
  return Number(raw);
}

const INVALID = Symbol('invalid');

/** A query value in the field's type; `null` (the word) means SQL null for $eq / $ne. */
function typedValue(raw: string, type: FieldType): unknown {
  if (raw === 'null' && type !== 'text') return null;
  switch (type) {
    case 'int':
      return /^-?\d{1,9}$/.test(raw) ? Number(raw) : INVALID;
    case 'number':
      return raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : INVALID;
    case 'bool':
      return raw === 'true' ? true : raw === 'false' ? false : INVALID;
    case 'date': {
      const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(raw) ? `${raw}T00:00:00Z` : raw);
      return Number.isNaN(t) ? INVALID : new Date(t).toISOString();
    }
    case 'text':
      return raw;
  }
}
