import { validationFailed } from '../errors';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '#shared/schemas/list';
import { isoDateInput } from '#shared/schemas/common';
import { storableDate } from '../storable';
import type { FieldError } from '#shared/schemas/error';
import type { ListField, ListFieldType, ListQuery, ListSpec } from './list-spec';
import {
  decodeListQuery,
  LIST_OPERATORS,
  ListQueryError,
  type ListOperator as Operator,
  type QueryTree,
  type QueryValue,
} from '#shared/list-query';
import { HttpError } from '../../http/http-error';
const SQL_OPERATOR: Record<Exclude<Operator, '$in' | '$between'>, string> = {
  $eq: '=',
  $ne: 'is distinct from',
  $gt: '>',
  $gte: '>=',
  $lt: '<',
  $lte: '<=',
};
const CAST: Record<ListFieldType, string> = {
  int: 'bigint',
  float: 'double precision',
  text: 'text',
  date: 'timestamptz',
  bool: 'boolean',
};

/** One parameter's problem; `parseListQuery` collects every one into a single 422. */
class FieldProblem extends Error {
  constructor(readonly field: FieldError) {
    super(field.message);
  }
}
const problem = (path: string, message: string) => new FieldProblem({ path, message });

function convert(value: string, type: ListFieldType, path: string): unknown {
  switch (type) {
    case 'int': {
      if (!/^-?\d{1,15}$/.test(value)) throw problem(path, `"${value}" is not a whole number`);
      return Number(value);
    }
    case 'float': {
      const n = Number(value);
      if (value.trim() === '' || !Number.isFinite(n))
        throw problem(path, `"${value}" is not a number`);
      return n;
    }
    case 'date': {
      const iso = isoDateInput.safeParse(value).success ? storableDate(value) : null;
      if (iso === null) throw problem(path, `"${value}" is not a date like 2026-07-14`);
      return iso;
    }
    case 'bool': {
      if (['true', '1'].includes(value)) return true;
      if (['false', '0'].includes(value)) return false;
      throw problem(path, `"${value}" is not true or false`);
    }
    case 'text':
      if (value.includes('\u0000')) throw problem(path, 'Text may not contain a NUL character');
      return value;
  }
}

/**
 * The spec's field of an API name, or undefined. Own properties only: `spec.fields` is a plain
 * object, so `spec.fields.constructor` would otherwise be `Object` and `query[constructor]`
 * would reach SQL (issue 9, D5). Every lookup of a name from the request goes through here.
 */
function fieldOf(spec: ListSpec, name: string): ListField | undefined {
  return Object.hasOwn(spec.fields, name) ? spec.fields[name] : undefined;
}

class Binder {
  readonly params: unknown[] = [];
  constructor(readonly first: number) {}
  bind(value: unknown, cast: string): string {
    this.params.push(value);
    return `$${this.first + this.params.length - 1}::${cast}`;
  }
}

function fieldCondition(
  name: string,
  field: ListField,
  value: QueryValue,
  binder: Binder,
): string[] {
  const path = `query.${name}`;
  const cast = CAST[field.type];
  // query[field]=v → $eq; query[field][0]=a&query[field][1]=b → $in.
  if (typeof value === 'string')
    return [`${field.sql} = ${binder.bind(convert(value, field.type, path), cast)}`];
  const list = valuesOf(value);
  if (list !== null) {
    const converted = list.map((v) => convert(v, field.type, path));
    return [`${field.sql} = any(${binder.bind(converted, `${cast}[]`)})`];
  }
  const conditions: string[] = [];
  for (const [op, operand] of Object.entries(value)) {
    const opPath = `${path}.${op}`;
    if (!(LIST_OPERATORS as readonly string[]).includes(op)) {
      throw problem(opPath, `Unknown operator ${op}; use one of ${LIST_OPERATORS.join(' ')}`);
    }
    const values = valuesOf(operand);
    if (values === null) throw problem(opPath, `${op} takes a value or a list of values`);
    const converted = values.map((v) => convert(v, field.type, opPath));
    if (op === '$in') {
      conditions.push(`${field.sql} = any(${binder.bind(converted, `${cast}[]`)})`);
    } else if (op === '$between') {
      if (converted.length !== 2)
        throw problem(opPath, '$between takes exactly two values ([0] and [1])');
      conditions.push(
        `${field.sql} between ${binder.bind(converted[0], cast)} and ${binder.bind(converted[1], cast)}`,
      );
    } else {
      if (converted.length !== 1) throw problem(opPath, `${op} takes exactly one value`);
      conditions.push(
        `${field.sql} ${SQL_OPERATOR[op as keyof typeof SQL_OPERATOR]} ${binder.bind(converted[0], cast)}`,
      );
    }
  }
  return conditions;
}

/**
 * The values of a list-like parameter: a single string, a list (`x[0]=a&x[1]=b`, `x[]=a`), or a
 * comma-separated string when `splitCommas`. Null when it is a keyed object or holds one.
 */
function valuesOf(value: QueryValue | undefined, splitCommas = false): string[] | null {
  if (value === undefined) return [];
  const items = typeof value === 'string' ? [value] : Array.isArray(value) ? value : null;
  if (items === null || items.some((v) => typeof v !== 'string')) return null;
  const strings = items as string[];
  return splitCommas
    ? strings.flatMap((v) =>
        v
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean),
      )
    : strings;
}

/** A refusal of the codec as the contract's answer: 422 naming an unknown name, else 400 (§2, §4). */
export function contractErrorOf(err: ListQueryError): HttpError {
  if (err.kind === 'unknown_name' && err.path)
    return validationFailed([{ path: err.path, message: err.message }]);
  return new HttpError(400, 'bad_request', err.message);
}

/** The query string as a tree (a tree already read is taken as it is). */
function readTree(source: string | QueryTree): QueryTree {
  if (typeof source !== 'string') return source;
  try {
    return decodeListQuery(source);
  } catch (err) {
    if (err instanceof ListQueryError) throw contractErrorOf(err);
    throw err;
  }
}

function positiveInt(raw: QueryValue | undefined, name: string, fallback: number): number {
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw) || Number(raw) < 1) {
    throw problem(name, `${name} must be a whole number of at least 1`);
  }
  return Number(raw);
}

function listParam(tree: QueryTree, name: string): string[] {
  const values = valuesOf(tree[name], true);
  if (values === null) throw problem(name, `${name}[] must be a list of names`);
  return values;
}

function parseSort(raw: QueryValue | undefined, spec: ListSpec): string {
  const terms: string[] = [];
  const add = (name: string, desc: boolean) => {
    const field = fieldOf(spec, name);
    if (!field || field.sortable === false) throw problem('sort', `Cannot sort by "${name}"`);
    terms.push(`${field.sql} ${desc ? 'desc' : 'asc'}`);
  };
  if (typeof raw === 'string') {
    for (const term of raw.split(/[,\s]+/).filter(Boolean)) {
      const desc = term.startsWith('-');
      add(desc || term.startsWith('+') ? term.slice(1) : term, desc);
    }
  } else if (raw !== undefined) {
    // Mongoose object form: sort[field]=1|-1|asc|desc.
    for (const [name, dir] of Object.entries(raw)) {
      if (
        typeof dir !== 'string' ||
        !['1', '-1', 'asc', 'desc', 'ascending', 'descending'].includes(dir)
      ) {
        throw problem(`sort.${name}`, 'Sort direction must be 1, -1, asc or desc');
      }
      add(name, dir === '-1' || dir.startsWith('desc'));
    }
  }
  const id = spec.fields.id;
  if (!id) throw new Error('ListSpec must define an id field');
  if (!terms.some((t) => t.startsWith(`${id.sql} `))) terms.push(`${id.sql} asc`);
  return terms.join(', ');
}

/**
 * Parses the shared GET parameters of a list (contract §4) from the raw query string or URL, or
 * from the tree the route read it into. See the module documentation in `./index.ts`.
 */
export function parseListQuery(
  source: string | QueryTree,
  spec: ListSpec,
  options: { firstParam?: number } = {},
): ListQuery {
  const tree = readTree(source);
  const binder = new Binder(options.firstParam ?? 1);
  // Contract §2: a 422 lists every failing parameter, so each one is checked on its own and a
  // problem is collected (with a neutral fallback) rather than ending the parse.
  const problems: FieldError[] = [];
  const check = <T>(fallback: T, parse: () => T): T => {
    try {
      return parse();
    } catch (err) {
      if (!(err instanceof FieldProblem)) throw err;
      problems.push(err.field);
      return fallback;
    }
  };

  const conditions: string[] = [];
  const query = tree.query;
  if (typeof query === 'string') {
    problems.push({
      path: 'query',
      message: 'Use query[field]=value or query[field][$op]=value',
    });
  } else if (query !== undefined) {
    for (const [name, value] of Object.entries(query)) {
      conditions.push(
        ...check<string[]>([], () => {
          const field = fieldOf(spec, name);
          if (!field || field.filterable === false)
            throw problem(`query.${name}`, `Unknown field "${name}" in query`);
          return fieldCondition(name, field, value, binder);
        }),
      );
    }
  }

  const searchFields = check<string[]>([], () => {
    const names = listParam(tree, 'searchFields');
    for (const name of names) {
      const field = fieldOf(spec, name);
      if (!field || field.type !== 'text' || field.searchable === false) {
        throw problem('searchFields', `"${name}" is not a text field that can be searched`);
      }
    }
    return names;
  });
  const search = check<string | undefined>(undefined, () => {
    const s = tree.search;
    if (s !== undefined && typeof s !== 'string')
      throw problem('search', 'search must be one string');
    if (s?.includes('\u0000')) throw problem('search', 'Text may not contain a NUL character');
    return s;
  });
  if (search) {
    const names =
      searchFields.length > 0
        ? searchFields
        : Object.keys(spec.fields).filter(
            (n) => spec.fields[n].type === 'text' && spec.fields[n].searchable !== false,
          );
    if (names.length > 0) {
      const pattern = binder.bind(`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, 'text');
      conditions.push(
        `(${names.map((n) => `${spec.fields[n].sql} ilike ${pattern}`).join(' or ')})`,
      );
    }
  }

  const page = check(1, () => positiveInt(tree.page, 'page', 1));
  const sizeKey = tree.pageSize !== undefined ? 'pageSize' : 'page_size';
  const pageSize = check(DEFAULT_PAGE_SIZE, () => {
    const size = positiveInt(tree[sizeKey], sizeKey, DEFAULT_PAGE_SIZE);
    if (size > MAX_PAGE_SIZE) throw problem(sizeKey, `${sizeKey} may be at most ${MAX_PAGE_SIZE}`);
    return size;
  });

  const allowedOutput = new Set(spec.outputFields ?? Object.keys(spec.fields));
  const fieldsAsked = check<string[]>([], () => {
    const names = listParam(tree, 'fields');
    for (const name of names)
      if (!allowedOutput.has(name)) throw problem('fields', `Unknown field "${name}" in fields[]`);
    return names;
  });

  const allowedPopulate = new Set(spec.populate ?? []);
  const populate = check<string[]>([], () => {
    const names = [...new Set(listParam(tree, 'populate'))];
    for (const name of names) {
      if (!allowedPopulate.has(name)) {
        throw problem(
          'populate',
          `Cannot populate "${name}"${allowedPopulate.size ? `; use ${[...allowedPopulate].join(', ')}` : ''}`,
        );
      }
    }
    return names;
  });

  const extra: Record<string, string> = {};
  for (const name of spec.extraParams ?? []) {
    const v = tree[name];
    if (v === undefined) continue;
    if (typeof v !== 'string') problems.push({ path: name, message: `${name} must be one value` });
    else extra[name] = v;
  }

  const orderBy = check('', () => parseSort(tree.sort, spec));
  if (problems.length > 0) throw validationFailed(problems);

  return {
    whereSql: conditions.length > 0 ? conditions.join(' and ') : 'true',
    params: binder.params,
    firstParam: binder.first,
    orderBy,
    limit: pageSize,
    offset: (page - 1) * pageSize,
    page,
    pageSize,
    fields: fieldsAsked.length > 0 ? [...new Set(fieldsAsked)] : null,
    populate,
    extra,
  };
}
