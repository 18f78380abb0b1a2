import { ENTITIES, ENTITY } from '#shared/entities';
import { LOOKUP_LISTS } from '#shared/schemas/lookups';
import { isPathId } from '../http/path-id';

export type ProxyMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type ProxyRoute = {
  method: ProxyMethod;
  path: string;
  /**
   * The answer holds a secret shown once (a temporary password, an agency token): the BFF never
   * journals it, so an Idempotency-Key on such a request is not used (neither kept nor sent).
   */
  secretAnswer?: true;
};

/** Record resources the app may read, create and update: every entity of the registry. */
const RECORD_RESOURCES = ENTITIES.map((e) => ENTITY[e].path);
const DELETABLE_RESOURCES = ENTITIES.filter((e) => ENTITY[e].deletable).map((e) => ENTITY[e].path);

/** The records and lookups the app reads and writes: every entity of the registry. */
export const PROXY_RECORD_ROUTES: ProxyRoute[] = [
  ...RECORD_RESOURCES.flatMap((base): ProxyRoute[] => [
    { method: 'GET', path: base },
    { method: 'POST', path: base },
    { method: 'GET', path: `${base}/:id` },
    { method: 'PUT', path: `${base}/:id` },
  ]),
  // The sync engine sends the deletes a manager queues on the tablet (the upstream refuses
  // them for technicians), for the entities the upstream can delete.
  ...DELETABLE_RESOURCES.map((base): ProxyRoute => ({ method: 'DELETE', path: `${base}/:id` })),
  ...Object.values(LOOKUP_LISTS).map((l): ProxyRoute => ({ method: 'GET', path: l.path })),
];

/** The extensions' routes the app reaches that are not records: people, tokens, history. */
export const PROXY_EXTENSION_ROUTES: ProxyRoute[] = [
  // The Office area (contract §10, §7): the upstream answers these for managers only.
  { method: 'GET', path: '/v1/user' },
  { method: 'POST', path: '/v1/user', secretAnswer: true },
  { method: 'PUT', path: '/v1/user/:id' },
  { method: 'POST', path: '/v1/user/:id/password', secretAnswer: true },
  { method: 'GET', path: '/v1/agency/token' },
  { method: 'POST', path: '/v1/agency/token', secretAnswer: true },
  { method: 'DELETE', path: '/v1/agency/token/:id' },
  // Anyone signed in, for themselves.
  { method: 'POST', path: '/v1/me/password', secretAnswer: true },
  // A record's history (History panel) and the agency's changes since a date (the Office's
  // list): the upstream applies the record's agency rules and refuses `since` to technicians.
  { method: 'GET', path: '/v1/history' },
];

/**
 * Exactly what the browser may reach upstream, as `/v1/...` route patterns (the BFF serves each
 * under `/api`). Anything else under /api/v1 is 404 (405 for a listed path with another method).
 */
export const PROXY_ALLOW_LIST: ProxyRoute[] = [...PROXY_RECORD_ROUTES, ...PROXY_EXTENSION_ROUTES];

/** Methods allowed on a /v1 path, for a 405's Allow header; empty when the path is not listed. */
export function allowedMethods(v1Path: string): ProxyMethod[] {
  const trimmed = v1Path.length > 1 ? v1Path.replace(/\/$/, '') : v1Path;
  return PROXY_ALLOW_LIST.filter((r) => matches(r.path, trimmed)).map((r) => r.method);
}

function matches(pattern: string, path: string): boolean {
  const p = pattern.split('/');
  const s = path.split('/');
  if (p.length !== s.length) return false;
  return p.every((seg, i) => (seg === ':id' ? isPathId(s[i]) : seg === s[i]));
}
