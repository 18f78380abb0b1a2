import { HttpError } from '../../http/http-error';

/** A parsed query string: bracket keys become nested objects (`a[b][0]=x` → {a: {b: {0: 'x'}}}). */
export type QueryValue = string | QueryObject;
export type QueryObject = { [key: string]: QueryValue };

const MAX_LENGTH = 32_768;
const MAX_PARAMS = 1000;
const MAX_DEPTH = 5;
const KEY = /^([^[\]]+)((?:\[[^[\]]*\])*)$/;
const SEGMENT = /\[([^[\]]*)\]/g;

const badRequest = (message: string) => new HttpError(400, 'bad_request', message);

function decode(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    throw badRequest('The query string has a malformed %-escape');
  }
}

function isIndexObject(node: QueryObject): boolean {
  return Object.keys(node).every((k) => /^\d+$/.test(k));
}

/**
 * Parses a raw query string (the part after `?`, or a whole `req.url`) the way Mongoose-style
 * clients write it: `query[surv_year][$between][0]=2025`, `populate[]=site`, `sort=-id`.
 * `[]` appends to an array; a key repeated without brackets also becomes an array. Arrays are
 * objects with index keys ("0", "1", …): read them with `valuesOf`. Malformed keys, conflicting
 * shapes (`a=1&a[b]=2`), too deep or too many parameters → 400 bad_request.
 */
export function parseQueryString(rawOrUrl: string): QueryObject {
  const q = rawOrUrl.includes('?')
    ? rawOrUrl.slice(rawOrUrl.indexOf('?') + 1)
    : rawOrUrl.startsWith('/')
      ? ''
      : rawOrUrl;
  if (q.length > MAX_LENGTH) throw badRequest('The query string is too long');
  const root: QueryObject = Object.create(null);
  const pairs = q.split('&').filter((p) => p !== '');
  if (pairs.length > MAX_PARAMS) throw badRequest(`At most ${MAX_PARAMS} query parameters`);
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const key = decode(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? '' : decode(pair.slice(eq + 1));
    const match = KEY.exec(key);
    if (!match) throw badRequest(`Malformed query parameter name "${key}"`);
    const path = [match[1], ...[...match[2].matchAll(SEGMENT)].map((m) => m[1])];
    if (path.length > MAX_DEPTH + 1)
      throw badRequest(`Query parameter "${key}" is nested too deeply`);
    insert(root, path, value, key);
  }
  return root;
}

function insert(root: QueryObject, path: string[], value: string, key: string): void {
  let node = root;
  for (let i = 0; i < path.length; i++) {
    const last = i === path.length - 1;
    let segment = path[i];
    if (segment === '') {
      if (!isIndexObject(node))
        throw badRequest(`Query parameter "${key}" mixes a list with named keys`);
      segment = String(Object.keys(node).length);
    }
    const existing = node[segment];
    if (last) {
      if (existing === undefined) node[segment] = value;
      else if (typeof existing === 'string')
        node[segment] = Object.assign(Object.create(null), { 0: existing, 1: value });
      else if (isIndexObject(existing)) existing[String(Object.keys(existing).length)] = value;
      else throw badRequest(`Query parameter "${key}" conflicts with another parameter`);
      return;
    }
    if (existing === undefined) {
      const child: QueryObject = Object.create(null);
      node[segment] = child;
      node = child;
    } else if (typeof existing === 'string') {
      throw badRequest(`Query parameter "${key}" conflicts with another parameter`);
    } else {
      node = existing;
    }
  }
}

/**
 * The values of a list-like parameter: a single string, an index object (`x[0]=a&x[1]=b`,
 * `x[]=a`), or a comma-separated string when `splitCommas`. Null when it is a keyed object.
 */
export function valuesOf(value: QueryValue | undefined, splitCommas = false): string[] | null {
  if (value === undefined) return [];
  if (typeof value === 'string')
    return splitCommas
      ? value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : [value];
  if (!isIndexObject(value)) return null;
  const out: string[] = [];
  for (const k of Object.keys(value).sort((a, b) => Number(a) - Number(b))) {
    const v = value[k];
    if (typeof v !== 'string') return null;
    out.push(
      ...(splitCommas
        ? v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : [v]),
    );
  }
  return out;
}
