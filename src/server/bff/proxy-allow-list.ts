import { ENTITY, type EntityRegistry } from '#shared/entities';
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

/**
 * The records and lookups the app reads and writes: every entity of `entities` (the registry,
 * ENTITY), read, created and updated, and deleted where the service takes deletes.
 */
export function recordProxyRoutes(entities: EntityRegistry): ProxyRoute[] {
  const facts = Object.values(entities);
  return [
    ...facts.flatMap(({ path }): ProxyRoute[] => [
      { method: 'GET', path },
      { method: 'POST', path },
      { method: 'GET', path: `${path}/:id` },
      { method: 'PUT', path: `${path}/:id` },
    ]),
    // The sync engine sends the deletes a manager queues on the tablet (the upstream refuses
    // them for technicians), for the entities the upstream can delete.
    ...facts
      .filter((f) => f.deletable)
      .map(({ path }): ProxyRoute => ({ method: 'DELETE', path: `${path}/:id` })),
    ...Object.values(LOOKUP_LISTS).map((l): ProxyRoute => ({ method: 'GET', path: l.path })),
  ];
}

export const PROXY_RECORD_ROUTES: ProxyRoute[] = recordProxyRoutes(ENTITY);

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
 * under `/api`), for the entities of `entities`. Anything else under /api/v1 is 404 (405 for a
 * listed path with another method).
 */
export function proxyAllowList(entities: EntityRegistry): ProxyRoute[] {
  return [...recordProxyRoutes(entities), ...PROXY_EXTENSION_ROUTES];
}

export const PROXY_ALLOW_LIST: ProxyRoute[] = proxyAllowList(ENTITY);

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
