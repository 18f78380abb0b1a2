import { randomUUID } from 'node:crypto';
import { LOOKUP_LISTS } from '#shared/schemas/lookups';
import type { ListSpec } from '../../../src/server/records/list';
import { COLLECTION_LIST } from '../../../src/server/records/collections/list-collections';
import { POOL_LIST } from '../../../src/server/records/pools/list-pools';
import { POOL_TEST_LIST } from '../../../src/server/records/pool-tests/list-pool-tests';
import { SITE_LIST } from '../../../src/server/records/sites/site-list-spec';
import { USER_LIST as PEOPLE_LIST_SPEC } from '../../../src/server/records/people/user-rows';
import { HISTORY_LIST } from '../../../src/server/records/history/history-list-spec';
import { SESSION_COOKIE } from '../../../src/server/bff/session-store';
import type { Actor, FuzzWorld, Resource } from './fuzz-world';
import { hostileValue, setOwn, toJsonText, HOSTILE_NAMES } from './hostile-values';
import { listQuery } from './list-query';
import { mutateFields, toWire, type WireBody } from './mutate-body';
import { validCreate, validUpdate } from './record-bodies';
import type { SeededRandom } from './seeded-random';
import { siteImportRequest } from './site-import-body';
import { photoRequest } from './photo-requests';

export type Via = 'records' | 'bff';

/** What a 2xx answer to a request teaches the world. */
export type Lesson =
  | { kind: 'created'; agency: number; resource: Resource }
  | { kind: 'updated'; agency: number; resource: Resource }
  | { kind: 'retired'; agency: number; resource: Resource; id: number }
  | { kind: 'agency-token'; agency: number }
  | { kind: 'agency-token-revoked'; agency: number; id: number }
  | { kind: 'spare-session' }
  | { kind: 'spare-token' };

/** One request as it goes on the wire, with the route it is aimed at (for coverage). */
export type FuzzRequest = {
  via: Via;
  /** `METHOD /pattern` of the route aimed at, as the server registers it; '(unrouted)' if none. */
  route: string;
  method: string;
  /** Path and query string, verbatim. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** What a 2xx body must look like. */
  expect: 'list' | 'record' | 'any';
  lesson?: Lesson;
  hostile: boolean;
};

export const RESOURCES: Record<Resource, { base: string; spec: ListSpec; deletable: boolean }> = {
  site: { base: '/v1/site', spec: SITE_LIST, deletable: true },
  collection: { base: '/v1/arthropod/collection', spec: COLLECTION_LIST, deletable: true },
  pool: { base: '/v1/arthropod/pool', spec: POOL_LIST, deletable: true },
  test: { base: '/v1/arthropod/pool/test', spec: POOL_TEST_LIST, deletable: false },
};

/** An operation on the records service's /v1 API, before it is addressed to a server. */
type Op = Omit<FuzzRequest, 'via' | 'route' | 'headers' | 'body' | 'hostile'> & {
  pattern: string;
  wire?: WireBody;
  idempotent?: boolean;
};

/** Keys recently sent, to send again (same body: replay; another body: idempotency_key_reused). */
const recentKeys: string[] = [];

/**
 * The fuzz's request generator. Each call makes one request: which server (records service
 * directly, or the BFF), which route (every registered route of both is reachable), which actor,
 * and whether it is valid as far as the fuzz can tell or damaged on purpose.
 */
export function nextRequest(rng: SeededRandom, world: FuzzWorld, baseHost: string): FuzzRequest {
  const hostile = rng.chance(0.55);
  // Every record route, straight and through the BFF, comes early in turn among the random
  // draws, so that even a short run reaches each.
  if (sweep.length > 0 && rng.chance(0.3)) {
    const [via, resource, kind] = sweep.shift()!;
    const actor = pickActor(rng, world, via);
    const op = recordOp(rng, world, actor, hostile, { resource, kind });
    return via === 'records'
      ? toRecords(rng, world, op, hostile, actor)
      : toBff(rng, world, actor, op, hostile, baseHost);
  }
  return rng.weighted<() => FuzzRequest>([
    [
      40,
      () => {
        const actor = pickActor(rng, world, 'records');
        return toRecords(rng, world, recordOp(rng, world, actor, hostile), hostile, actor);
      },
    ],
    [
      30,
      () => {
        const actor = pickActor(rng, world, 'bff');
        return toBff(rng, world, actor, recordOp(rng, world, actor, hostile), hostile, baseHost);
      },
    ],
    [5, () => toRecords(rng, world, lookupOp(rng, hostile, 'records'), hostile)],
    [
      4,
      () =>
        toBff(
          rng,
          world,
          pickActor(rng, world, 'bff'),
          lookupOp(rng, hostile, 'bff'),
          hostile,
          baseHost,
        ),
    ],
    [
      3,
      () => {
        const actor = pickActor(rng, world, 'records');
        return toRecords(rng, world, historyOp(rng, world, actor, hostile), hostile, actor);
      },
    ],
    [
      3,
      () => {
        const actor = pickActor(rng, world, 'bff');
        return toBff(rng, world, actor, historyOp(rng, world, actor, hostile), hostile, baseHost);
      },
    ],
    [
      3,
      () => {
        const actor = pickActor(rng, world, 'records');
        return toRecords(rng, world, siteBatchOp(rng, world, actor, hostile), hostile, actor);
      },
    ],
    [6, () => authOp(rng, world, hostile)],
    [5, () => peopleRequest(rng, world, hostile, baseHost)],
    [10, () => bffOwnRoute(rng, world, hostile, baseHost)],
    [3, () => photoRoute(rng, world, hostile, baseHost)],
    [4, () => unrouted(rng, world, hostile, baseHost)],
  ])();
}

/**
 * Requests sent at once: the same create with the same Idempotency-Key (exactly one record, every
 * answer the same one), or creates claiming the same explicit number (at most one wins).
 */
export function burst(
  rng: SeededRandom,
  world: FuzzWorld,
  baseHost: string,
): { requests: FuzzRequest[]; sameKey: boolean } {
  const via: Via = rng.chance(0.5) ? 'records' : 'bff';
  const actor = world.actor(rng.pick(['tech', 'manager'] as const));
  const resource = rng.pick(['collection', 'collection', 'pool', 'site'] as const);
  const sameKey = rng.chance(0.6);
  const body = validCreate(rng, world, actor.agency, resource);
  if (!sameKey) {
    if (resource === 'site') {
      // Dated revisions may share a code (rule 5): undated sites with one code may not.
      body.code = String(rng.int(100_000, 999_999));
      delete body.active_date;
      delete body.deactive_date;
    } else body[resource === 'pool' ? 'pool_num' : 'collection_num'] = rng.int(10_000, 2_000_000);
  }
  const key = randomUUID();
  const requests = Array.from({ length: rng.int(2, 5) }, () => {
    const op: Op = {
      method: 'POST',
      pattern: RESOURCES[resource].base,
      path: RESOURCES[resource].base,
      wire: { text: toJsonText(body), contentType: 'application/json' },
      expect: 'record',
      lesson: { kind: 'created', agency: actor.agency, resource },
    };
    const req =
      via === 'records'
        ? toRecords(rng, world, op, false, actor)
        : toBff(rng, world, actor, op, false, baseHost);
    if (sameKey) req.headers['idempotency-key'] = key;
    else delete req.headers['idempotency-key'];
    return req;
  });
  return { requests, sameKey };
}

function pickActor(rng: SeededRandom, world: FuzzWorld, via: Via): Actor {
  const names =
    via === 'records'
      ? ([
          [45, 'tech'],
          [38, 'manager'],
          [10, 'neighbor'],
          [7, 'agency-token'],
        ] as const)
      : ([
          [50, 'tech'],
          [40, 'manager'],
          [10, 'neighbor'],
        ] as const);
  return world.actor(rng.weighted(names));
}

type OpKind = 'list' | 'get' | 'post' | 'put' | 'delete';

const sweep: Array<[Via, Resource, OpKind]> = (['records', 'bff'] as const).flatMap((via) =>
  (Object.keys(RESOURCES) as Resource[]).flatMap((resource) =>
    (['list', 'get', 'post', 'put', 'delete'] as const)
      .filter((kind) => kind !== 'delete' || RESOURCES[resource].deletable)
      .map((kind): [Via, Resource, OpKind] => [via, resource, kind]),
  ),
);

function recordOp(
  rng: SeededRandom,
  world: FuzzWorld,
  actor: Actor,
  hostile: boolean,
  forced?: { resource: Resource; kind: OpKind },
): Op {
  const resource =
    forced?.resource ??
    rng.pick(['site', 'collection', 'collection', 'pool', 'pool', 'test'] as const);
  const { base, spec, deletable } = RESOURCES[resource];
  const kind =
    forced?.kind ??
    rng.weighted<OpKind>([
      [25, 'list'],
      [18, 'get'],
      [32, 'post'],
      [17, 'put'],
      [deletable ? 8 : 0, 'delete'],
    ]);
  const trailing = hostile && rng.chance(0.05) ? '/' : '';
  const body = () => {
    const b =
      kind === 'post'
        ? validCreate(rng, world, actor.agency, resource)
        : validUpdate(rng, world, actor.agency, resource);
    if (hostile && rng.chance(0.75)) mutateFields(rng, b);
    return toWire(rng, b, hostile);
  };
  switch (kind) {
    case 'list':
      return {
        method: 'GET',
        pattern: base,
        path: `${base}${trailing}${listQuery(rng, spec, hostile)}`,
        expect: 'list',
      };
    case 'post':
      return {
        method: 'POST',
        pattern: base,
        path: `${base}${trailing}`,
        wire: body(),
        expect: 'record',
        idempotent: true,
        lesson: { kind: 'created', agency: actor.agency, resource },
      };
    case 'get': {
      const id = world.pathId(rng, actor.agency, resource);
      const q = rng.chance(0.4)
        ? listQuery(rng, spec, hostile).replace(/(^|&)(page|sort|query|search)[^&]*/g, '')
        : '';
      return {
        method: 'GET',
        pattern: `${base}/:id`,
        path: `${base}/${id}${trailing}${q}`,
        expect: 'record',
      };
    }
    case 'put': {
      const id = world.pathId(rng, actor.agency, resource);
      return {
        method: 'PUT',
        pattern: `${base}/:id`,
        path: `${base}/${id}${trailing}`,
        wire: body(),
        expect: 'record',
        lesson: { kind: 'updated', agency: actor.agency, resource },
      };
    }
    case 'delete': {
      const id = world.pathId(rng, actor.agency, resource);
      return {
        method: 'DELETE',
        pattern: `${base}/:id`,
        path: `${base}/${id}${trailing}`,
        expect: 'any',
        lesson: { kind: 'retired', agency: actor.agency, resource, id: Number(id) },
        // The public R client sends Content-Type: application/json with no body on every request.
        ...(rng.chance(0.2) ? { wire: { text: undefined, contentType: 'application/json' } } : {}),
      };
    }
  }
}

const HISTORY_ENTITY_OF: Record<Resource, string> = {
  site: 'site',
  collection: 'collection',
  pool: 'pool',
  test: 'test',
};

/**
 * GET /v1/history (contract §11): a record's history (mostly the actor's own record, some of
 * another agency's, some ids that cannot exist) or the agency's changes since a date (which a
 * technician is refused), with the shared list parameters, damaged when hostile.
 */
function historyOp(rng: SeededRandom, world: FuzzWorld, actor: Actor, hostile: boolean): Op {
  const paging = rng.chance(0.5) ? listQuery(rng, HISTORY_LIST, hostile).replace(/^\?/, '&') : '';
  let q: string;
  if (rng.chance(0.6)) {
    const resource = rng.pick(['site', 'collection', 'pool', 'test'] as const);
    const entity =
      hostile && rng.chance(0.3) ? rng.pick(HOSTILE_NAMES) : HISTORY_ENTITY_OF[resource];
    q = `entity=${encodeURIComponent(entity)}&id=${encodeURIComponent(world.pathId(rng, actor.agency, resource))}`;
  } else {
    const since = hostile
      ? rng.pick(['yesterday', '2026-13-45', '', '0000-01-01', '2026-07-14T25:00:00Z', '%00'])
      : rng.pick(['2020-01-01', '2026-07-14T06:30:00-07:00', '2100-01-01']);
    q = `since=${since === '%00' ? since : encodeURIComponent(since)}`;
  }
  return {
    method: 'GET',
    pattern: '/v1/history',
    path: `/v1/history?${q}${paging}`,
    expect: 'list',
  };
}

/**
 * POST /v1/site/batch (Trapline extension): a few site creates and updates in one request,
 * managers only; hostile items are damaged as single bodies are, sometimes the envelope too.
 * What it creates is not taught to the world (the batch answers ids, not records).
 */
function siteBatchOp(rng: SeededRandom, world: FuzzWorld, actor: Actor, hostile: boolean): Op {
  const items: unknown[] = Array.from({ length: rng.int(1, 5) }, () => {
    if (rng.chance(0.7)) {
      const site = validCreate(rng, world, actor.agency, 'site');
      if (hostile) mutateFields(rng, site);
      return { op: 'create', site };
    }
    const site = validUpdate(rng, world, actor.agency, 'site');
    if (hostile) mutateFields(rng, site);
    const id = Number(world.pathId(rng, actor.agency, 'site'));
    return { op: hostile && rng.chance(0.2) ? 'upsert' : 'update', id, site };
  });
  const body: Record<string, unknown> = { items };
  if (hostile && rng.chance(0.2)) setOwn(body, rng.pick(['items', 'extra']), hostileValue(rng));
  return {
    method: 'POST',
    pattern: '/v1/site/batch',
    path: '/v1/site/batch',
    wire: toWire(rng, body, hostile),
    expect: 'any',
  };
}

const LOOKUP_PATHS = Object.values(LOOKUP_LISTS).map((l) => l.path);
const lookupTurn: Record<Via, number> = { records: 0, bff: 0 };

function lookupOp(rng: SeededRandom, hostile: boolean, via: Via): Op {
  // In turn rather than at random, so that even a short run reaches every lookup route of each.
  const path = LOOKUP_PATHS[lookupTurn[via]++ % LOOKUP_PATHS.length];
  const q =
    path === '/v1/agency' && rng.chance(0.5)
      ? `?${rng
          .some(['shape', 'region', ...(hostile ? HOSTILE_NAMES.slice(0, 4) : [])], 3)
          .map((p) => `populate[]=${encodeURIComponent(p)}`)
          .join('&')}`
      : rng.chance(0.4)
        ? listQuery(rng, null, hostile)
        : '';
  return { method: 'GET', pattern: path, path: `${path}${q}`, expect: 'list' };
}

/** Sends an operation straight to the records service with the actor's token (or a bad one). */
function toRecords(
  rng: SeededRandom,
  world: FuzzWorld,
  op: Op,
  hostile: boolean,
  actor?: Actor,
): FuzzRequest {
  const who = actor ?? pickActor(rng, world, 'records');
  const headers: Record<string, string> = { accept: 'application/json' };
  headers.authorization =
    hostile && rng.chance(0.1)
      ? rng.pick([
          '',
          'Bearer',
          'Bearer ',
          'Bearer garbage',
          `Basic ${who.token}`,
          `bearer ${who.token}`,
          `Bearer ${who.token} ${who.token}`,
          `Bearer ${'x'.repeat(5000)}`,
          `Bearer ${who.token.slice(0, -1)}`,
        ])
      : `Bearer ${who.token}`;
  if (headers.authorization === '') delete headers.authorization;
  return finish(
    rng,
    { ...op, via: 'records', route: `${op.method} ${op.pattern}`, headers, hostile },
    op,
    hostile,
    who.agency,
  );
}

/** Sends an operation through the BFF (`/api` + its path) with the actor's session cookie. */
function toBff(
  rng: SeededRandom,
  world: FuzzWorld,
  actor: Actor,
  op: Op,
  hostile: boolean,
  baseHost: string,
): FuzzRequest {
  const headers = bffHeaders(rng, hostile, baseHost, actor.cookie ?? undefined, world);
  return finish(
    rng,
    {
      ...op,
      via: 'bff',
      path: `/api${op.path}`,
      route: `${op.method} /api${op.pattern}`,
      headers,
      hostile,
    },
    op,
    hostile,
    actor.agency,
  );
}

function finish(
  rng: SeededRandom,
  req: FuzzRequest,
  op: Op,
  hostile: boolean,
  agency: number,
): FuzzRequest {
  const out: FuzzRequest = {
    via: req.via,
    route: req.route,
    method: req.method,
    path: req.path,
    headers: req.headers,
    expect: req.expect,
    hostile,
    ...(op.lesson ? { lesson: { ...op.lesson, agency } as Lesson } : {}),
  };
  if (op.wire) {
    if (op.wire.text !== undefined) out.body = op.wire.text;
    if (op.wire.contentType !== null) out.headers['content-type'] = op.wire.contentType;
  }
  if (op.idempotent && rng.chance(0.35)) {
    const reuse = recentKeys.length > 0 && rng.chance(0.15);
    const key =
      hostile && rng.chance(0.1)
        ? rng.pick([' ', 'ä', 'x'.repeat(201), 'a b', '../x', '\t'])
        : reuse
          ? rng.pick(recentKeys)
          : randomUUID();
    out.headers['idempotency-key'] = key;
    if (!reuse) {
      recentKeys.push(key);
      if (recentKeys.length > 50) recentKeys.shift();
    }
  }
  return out;
}

/** The app's headers (cookie, X-CSRF, same Origin), sometimes wrong as a cross-site page makes them. */
function bffHeaders(
  rng: SeededRandom,
  hostile: boolean,
  baseHost: string,
  cookie: string | undefined,
  world: FuzzWorld,
): Record<string, string> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    origin: baseHost,
    'x-csrf': '1',
  };
  if (cookie) headers.cookie = cookie;
  if (!hostile || !rng.chance(0.25)) return headers;
  rng.weighted<() => void>([
    [3, () => delete headers['x-csrf']],
    [1, () => (headers['x-csrf'] = rng.pick(['0', 'true', '1 ', '11']))],
    [
      2,
      () =>
        (headers.origin = rng.pick([
          'https://evil.example',
          'null',
          baseHost.replace('127.0.0.1', 'localhost'),
          `${baseHost}.evil.example`,
          '',
        ])),
    ],
    [1, () => delete headers.origin],
    [
      1,
      () =>
        (headers['sec-fetch-site'] = rng.pick(['cross-site', 'same-site', 'none', 'same-origin'])),
    ],
    [2, () => delete headers.cookie],
    [
      2,
      () =>
        (headers.cookie = rng.pick([
          `${SESSION_COOKIE}=garbage`,
          `${SESSION_COOKIE}=${'x'.repeat(300)}`,
          `${SESSION_COOKIE}=`,
          `${SESSION_COOKIE}=%00`,
          `${cookie}; ${SESSION_COOKIE}=other`,
        ])),
    ],
    [1, () => world.spareCookies.length > 0 && (headers.cookie = rng.pick(world.spareCookies))],
  ])();
  if (headers.origin === '') delete headers.origin;
  return headers;
}

/** /login, /openapi.json, /v1/me and agency tokens (records service only: never proxied). */
function authOp(rng: SeededRandom, world: FuzzWorld, hostile: boolean): FuzzRequest {
  const kind = rng.pick([
    'login',
    'login',
    'openapi',
    'me',
    'sign-out',
    'token-post',
    'token-delete',
    'renew',
  ] as const);
  if (kind === 'sign-out') return signOut(rng, world, hostile);
  if (kind === 'renew') return renewToken(rng, world, hostile);
  if (kind === 'login') {
    const creds = credentials(rng, hostile, 'demo-manager', 0.05);
    const asQuery = rng.chance(0.2);
    const req: FuzzRequest = {
      via: 'records',
      route: 'POST /login',
      method: 'POST',
      path: asQuery
        ? `/login?${Object.entries(creds)
            .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
            .join('&')}`
        : '/login',
      headers: { accept: 'application/json' },
      expect: 'any',
      hostile,
      lesson: { kind: 'spare-token' },
    };
    if (!asQuery) {
      const wire = toWire(rng, creds, hostile);
      if (wire.text !== undefined) req.body = wire.text;
      if (wire.contentType !== null) req.headers['content-type'] = wire.contentType;
    }
    return req;
  }
  const actor = pickActor(rng, world, 'records');
  const op: Op =
    kind === 'openapi'
      ? { method: 'GET', pattern: '/openapi.json', path: '/openapi.json', expect: 'any' }
      : kind === 'me'
        ? { method: 'GET', pattern: '/v1/me', path: '/v1/me', expect: 'any' }
        : kind === 'token-post'
          ? {
              method: 'POST',
              pattern: '/v1/agency/token',
              path: '/v1/agency/token',
              expect: 'any',
              lesson: { kind: 'agency-token', agency: actor.agency },
              ...(rng.chance(0.5)
                ? { wire: toWire(rng, hostile ? hostileValue(rng) : {}, hostile) }
                : {}),
            }
          : tokenDelete(rng, world, actor, hostile);
  return toRecords(rng, world, op, hostile, actor);
}

/**
 * DELETE /v1/me/token revokes the token it is sent with: only ever with a spare token (from the
 * fuzz's own sign-ins), an agency token (refused), or a bad one; never an actor's.
 */
function signOut(rng: SeededRandom, world: FuzzWorld, hostile: boolean): FuzzRequest {
  const spare = world.spareTokens.length > 0 ? world.spareTokens.shift() : undefined;
  const token = rng.weighted<() => string | undefined>([
    [6, () => spare],
    [2, () => world.actor('agency-token').token],
    [hostile ? 2 : 0, () => rng.pick(['garbage', '', 'x'.repeat(300)])],
    [hostile ? 1 : 0, () => undefined],
  ])();
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  return {
    via: 'records',
    route: 'DELETE /v1/me/token',
    method: 'DELETE',
    path: '/v1/me/token',
    headers,
    expect: 'any',
    hostile,
  };
}

/**
 * POST /login/renew exchanges the token it is sent with: only ever a spare token (whose successor
 * becomes a spare in turn), an agency token (refused), or a bad one; never an actor's.
 */
function renewToken(rng: SeededRandom, world: FuzzWorld, hostile: boolean): FuzzRequest {
  const spare = world.spareTokens.length > 0 ? world.spareTokens.shift() : undefined;
  const token = rng.weighted<() => string | undefined>([
    [6, () => spare],
    [2, () => world.actor('agency-token').token],
    [hostile ? 2 : 0, () => rng.pick(['garbage', '', 'x'.repeat(300)])],
    [hostile ? 1 : 0, () => undefined],
  ])();
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  return {
    via: 'records',
    route: 'POST /login/renew',
    method: 'POST',
    path: '/login/renew',
    headers,
    expect: 'any',
    hostile,
    lesson: { kind: 'spare-token' },
  };
}

function tokenDelete(rng: SeededRandom, world: FuzzWorld, actor: Actor, hostile: boolean): Op {
  const mine = world.of(actor.agency).agencyTokens;
  const other = world.of(actor.agency === 1 ? 2 : 1).agencyTokens;
  const id = hostile
    ? rng.pick(['0', 'abc', '-1', '2147483648', String(rng.pick(other.concat([1])))])
    : String(mine.length > 0 ? rng.pick(mine) : 999_999);
  return {
    method: 'DELETE',
    pattern: '/v1/agency/token/:id',
    path: `/v1/agency/token/${id}`,
    expect: 'any',
    lesson: { kind: 'agency-token-revoked', agency: actor.agency, id: Number(id) },
  };
}

/**
 * A sign-in: mostly a wrong password or an unknown user (each hits the login limits, as a
 * guessing attacker would), the right one at `rightRate` (scrypt is slow on purpose: kept rare).
 */
function credentials(
  rng: SeededRandom,
  hostile: boolean,
  other: string,
  rightRate: number,
): Record<string, unknown> {
  const creds: Record<string, unknown> = {
    username: rng.weighted([
      [3, 'demo-tech'],
      [1, other],
      [4, `nobody-${rng.int(1, 1e6)}`],
    ]),
    password: rng.chance(rightRate) ? 'test-password-correct-horse' : `wrong-${rng.int(1, 1e6)}`,
  };
  if (hostile) mutateFields(rng, creds);
  return creds;
}

/** The BFF's own routes: session, lookups document, health, config. */
/** The photo routes (contract §13), each in turn: see photo-requests.ts. */
function photoRoute(
  rng: SeededRandom,
  world: FuzzWorld,
  hostile: boolean,
  baseHost: string,
): FuzzRequest {
  const actor = pickActor(rng, world, 'bff');
  const headers = bffHeaders(rng, hostile, baseHost, actor.cookie ?? undefined, world);
  const photo = photoRequest(rng, hostile, world.liveId(rng, actor.agency, 'collection'));
  return {
    via: 'bff',
    hostile,
    expect: 'any',
    ...photo,
    headers: { ...headers, ...photo.headers },
  };
}

function bffOwnRoute(
  rng: SeededRandom,
  world: FuzzWorld,
  hostile: boolean,
  baseHost: string,
): FuzzRequest {
  const actor = pickActor(rng, world, 'bff');
  const kind = rng.weighted([
    [3, 'session-post'],
    [3, 'session-get'],
    [2, 'session-delete'],
    [3, 'lookups'],
    [2, 'health'],
    [2, 'config'],
    [4, 'reports'],
    [6, 'exports'],
    [2, 'choose-password'],
    [3, 'site-import'],
  ] as const);
  // Only spare sessions (made by the fuzz's own sign-ins) are ever signed out or replaced.
  const spare = world.spareCookies.length > 0 ? rng.pick(world.spareCookies) : undefined;
  const cookie =
    kind === 'session-delete' || kind === 'session-post'
      ? spare
      : rng.chance(0.8)
        ? (actor.cookie ?? undefined)
        : spare;
  const headers = bffHeaders(rng, hostile, baseHost, cookie, world);
  if ((kind === 'session-delete' || kind === 'session-post') && headers.cookie === actor.cookie)
    delete headers.cookie;
  const base = { via: 'bff' as const, headers, hostile, expect: 'any' as const };
  switch (kind) {
    case 'session-post': {
      // A right password now and then: each makes a spare session the fuzz may sign out.
      const creds = credentials(rng, hostile, 'neighbor-manager', 0.25);
      const wire = toWire(rng, creds, hostile);
      const req: FuzzRequest = {
        ...base,
        route: 'POST /api/session',
        method: 'POST',
        path: '/api/session',
        lesson: { kind: 'spare-session' },
      };
      if (wire.text !== undefined) req.body = wire.text;
      if (wire.contentType !== null) req.headers['content-type'] = wire.contentType;
      return req;
    }
    case 'choose-password': {
      // Never an actor's right password: the fuzz's own accounts must keep theirs.
      const body: Record<string, unknown> = {
        username: rng.pick(['demo-tech', `nobody-${rng.int(1, 1e6)}`]),
        password: `wrong-${rng.int(1, 1e6)}`,
        new_password: rng.pick(['short', 'a-long-enough-new-password', 'demo-tech']),
      };
      if (hostile) mutateFields(rng, body);
      const wire = toWire(rng, body, hostile);
      const req: FuzzRequest = {
        ...base,
        route: 'POST /api/session/password',
        method: 'POST',
        path: '/api/session/password',
      };
      if (wire.text !== undefined) req.body = wire.text;
      if (wire.contentType !== null) req.headers['content-type'] = wire.contentType;
      return req;
    }
    case 'session-get':
      return { ...base, route: 'GET /api/session', method: 'GET', path: '/api/session' };
    case 'session-delete':
      return { ...base, route: 'DELETE /api/session', method: 'DELETE', path: '/api/session' };
    case 'lookups':
      return {
        ...base,
        route: 'GET /api/lookups',
        method: 'GET',
        path: `/api/lookups${hostile && rng.chance(0.3) ? '?x[__proto__]=1' : ''}`,
      };
    case 'health':
      return {
        ...base,
        route: 'GET /api/health',
        method: rng.chance(0.9) ? 'GET' : 'HEAD',
        path: '/api/health',
      };
    case 'config':
      return { ...base, route: 'GET /api/config', method: 'GET', path: '/api/config' };
    case 'reports': {
      // In turn, as the exports: a route more on the BFF shifted the draws and left one unreached.
      const report = REPORTS[reportTurn++ % REPORTS.length];
      return {
        ...base,
        route: `GET /api/reports/${report}`,
        method: 'GET',
        path: `/api/reports/${report}${reportQuery(rng, hostile)}`,
      };
    }
    case 'exports': {
      // In turn rather than at random: six routes, each reached within a short run.
      const file = EXPORTS[exportTurn++ % EXPORTS.length];
      return {
        ...base,
        route: `GET /api/export/${file}`,
        method: 'GET',
        path: `/api/export/${file}${exportQuery(rng, hostile, file)}`,
      };
    }
    case 'site-import': {
      const file = siteImportRequest(rng, hostile);
      return {
        ...base,
        headers: { ...headers, 'content-type': file.contentType },
        route: 'POST /api/import/sites',
        method: 'POST',
        path: `/api/import/sites${file.query}`,
        body: file.body,
      };
    }
  }
}

let exportTurn = 0;
let reportTurn = 0;
const EXPORTS = [
  'sites.csv',
  'sites.geojson',
  'collections.csv',
  'pools.csv',
  'pool-tests.csv',
  'summary',
] as const;

/** An export's query string: a page size, or, when hostile, a wrong or unknown parameter. */
function exportQuery(rng: SeededRandom, hostile: boolean, file: string): string {
  const good = file === 'summary' ? [] : ['page_size=1000', `page_size=${rng.int(50, 1000)}`];
  const bad = [
    'page_size=0',
    'page_size=1001',
    'page_size=-1',
    'page_size=abc',
    'page_size=1&page_size=2',
    'pageSize=10',
    `${encodeURIComponent(rng.pick(HOSTILE_NAMES))}=1`,
  ];
  const parts = good.length > 0 && rng.chance(0.5) ? [rng.pick(good)] : [];
  if (hostile) parts.push(rng.pick(bad));
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

const REPORTS = ['abundance', 'abundance-anomaly', 'infection-rate', 'vector-index'] as const;

/** A report's query string: the spec's parameters, or, when hostile, wrong ones. */
function reportQuery(rng: SeededRandom, hostile: boolean): string {
  const good = [
    'interval=Week',
    'interval=Biweek',
    'interval=Month',
    `year=${rng.pick(['2025', '2026'])}`,
    'format=csv',
    'separate_by=species',
    'pt_estimate=mle',
    'target_year=2026',
  ];
  const bad = [
    'interval=Fortnight',
    'year=-1',
    'year=99999999999',
    'format=html',
    'yaer=2026',
    `${encodeURIComponent(rng.pick(HOSTILE_NAMES))}=1`,
    'year=2026&year=2025',
    'trapnight_min=5&trapnight_max=1',
  ];
  const parts = Array.from({ length: rng.int(0, 3) }, () => rng.pick(good));
  if (hostile) parts.push(rng.pick(bad));
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

/** Paths and methods no route serves: 404 / 405 / 400 with the contract's body, never a 500. */
function unrouted(
  rng: SeededRandom,
  world: FuzzWorld,
  hostile: boolean,
  baseHost: string,
): FuzzRequest {
  const via: Via = rng.chance(0.5) ? 'records' : 'bff';
  const prefix = via === 'bff' ? '/api' : '';
  const path = rng.pick([
    `${prefix}/v1/nothing`,
    `${prefix}/v1/arthropod`,
    `${prefix}/v1/site/1/extra`,
    `${prefix}/v1/agency/token`,
    `${prefix}/v1/me`,
    `${prefix}/v1/../login`,
    `${prefix}/v1/%2e%2e/login`,
    `${prefix}/v1//site`,
    `${prefix}/v1/site%2f1`,
    `${prefix}/v1/site/1%00`,
    `${prefix}/v1/site\\1`,
    `${prefix}/v1/${encodeURIComponent(rng.pick(HOSTILE_NAMES))}`,
    `${prefix}/V1/SITE`,
    `${prefix}/x`,
    '/api',
    '/login/extra',
  ]);
  const method = rng.pick(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']);
  const actor = world.actor('tech');
  const headers =
    via === 'bff'
      ? bffHeaders(rng, hostile, baseHost, actor.cookie ?? undefined, world)
      : { accept: 'application/json', authorization: `Bearer ${actor.token}` };
  const req: FuzzRequest = {
    via,
    route: '(unrouted)',
    method,
    path,
    headers,
    expect: 'any',
    hostile,
  };
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
    const body: Record<string, unknown> = {};
    setOwn(body, rng.pick(HOSTILE_NAMES), 1);
    req.body = toJsonText(body);
    req.headers['content-type'] = 'application/json';
  }
  return req;
}

/** The people routes (contract §10) and the agency token list, each in turn, straight and via the BFF. */
const PEOPLE_KINDS = [
  'list',
  'create',
  'update',
  'reset',
  'own-password',
  'token-list',
  'token-create',
  'token-revoke',
] as const;
let peopleTurn = 0;

/**
 * A request to the Office's routes. The fuzz's actors (users 1-3) must go on working: they are
 * only ever renamed, never deactivated, demoted or reset (that would end their sign-ins), and an
 * own-password change always carries a wrong current password. Everything else goes to the
 * accounts the fuzz creates (ids from 4), or to ids that name nobody.
 */
function peopleRequest(
  rng: SeededRandom,
  world: FuzzWorld,
  hostile: boolean,
  baseHost: string,
): FuzzRequest {
  const turn = peopleTurn++;
  const kind = PEOPLE_KINDS[turn % PEOPLE_KINDS.length];
  const via: Via = Math.floor(turn / PEOPLE_KINDS.length) % 2 === 0 ? 'records' : 'bff';
  const actor = pickActor(rng, world, via);
  const anyId = () =>
    hostile ? rng.pick(['0', 'abc', '-1', '2147483648', '01']) : String(rng.int(4, 40));
  const body = (value: Record<string, unknown>): WireBody => {
    if (hostile) mutateFields(rng, value);
    return toWire(rng, value, hostile);
  };
  const op: Op = (() => {
    switch (kind) {
      case 'list':
        return {
          method: 'GET',
          pattern: '/v1/user',
          path: `/v1/user${listQuery(rng, PEOPLE_LIST_SPEC, hostile)}`,
          expect: 'list',
        };
      case 'create':
        return {
          method: 'POST',
          pattern: '/v1/user',
          path: '/v1/user',
          expect: 'record',
          idempotent: true,
          wire: body({
            username: rng.pick([`fuzz-${rng.int(1, 1e9)}`, 'DEMO-TECH', 'a b', 'x']),
            full_name: 'Fuzz Person',
            role: rng.pick(['user', 'manager']),
          }),
        };
      case 'update': {
        const actorId = rng.chance(0.3);
        const id = actorId ? String(rng.int(1, 3)) : anyId();
        // An actor's account: a rename only, whatever the damage to its text.
        const value: Record<string, unknown> = actorId
          ? { full_name: hostile ? hostileValue(rng) : 'Renamed by the fuzz' }
          : {
              full_name: 'Fuzz Person',
              role: rng.pick(['user', 'manager']),
              active: rng.chance(0.5),
            };
        return {
          method: 'PUT',
          pattern: '/v1/user/:id',
          path: `/v1/user/${id}`,
          expect: 'record',
          wire: actorId ? toWire(rng, value, hostile) : body(value),
        };
      }
      case 'reset':
        return {
          method: 'POST',
          pattern: '/v1/user/:id/password',
          path: `/v1/user/${anyId()}/password`,
          expect: 'any',
          idempotent: true,
          ...(rng.chance(0.5) ? { wire: toWire(rng, {}, hostile) } : {}),
        };
      case 'own-password':
        return {
          method: 'POST',
          pattern: '/v1/me/password',
          path: '/v1/me/password',
          expect: 'any',
          wire: body({
            current_password: `wrong-${rng.int(1, 1e6)}`,
            new_password: rng.pick(['short', 'a-long-enough-new-password']),
          }),
        };
      case 'token-list':
        return {
          method: 'GET',
          pattern: '/v1/agency/token',
          path: '/v1/agency/token',
          expect: 'any',
        };
      case 'token-create':
        return {
          method: 'POST',
          pattern: '/v1/agency/token',
          path: '/v1/agency/token',
          expect: 'any',
          lesson: { kind: 'agency-token', agency: actor.agency },
          wire: toWire(rng, {}, hostile),
        };
      case 'token-revoke':
        return tokenDelete(rng, world, actor, hostile);
    }
  })();
  return via === 'records'
    ? toRecords(rng, world, op, hostile, actor)
    : toBff(rng, world, actor, op, hostile, baseHost);
}
