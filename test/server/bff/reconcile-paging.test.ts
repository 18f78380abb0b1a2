import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBff, type RunningBff } from '../../../src/server/bff/app';
import { IdempotencyJournal } from '../../../src/server/bff/idempotency-journal';
import { canonicalJson } from '../../../src/server/bff/parse-json';
import type { Database } from '../../../src/server/db/database';
import { openTestDatabase } from '../helpers/test-database';
import { appRequest } from './helpers/bff-stack';
import { cookieFrom } from './helpers/http';
import {
  PUBLIC_AGENCY,
  PUBLIC_PASSWORD,
  startPublicLikeUpstream,
  type PublicLikeUpstream,
} from './helpers/public-like-upstream';
import { makeCollection } from './helpers/record-bodies';
import { startTcpFaultProxy, type TcpFaultProxy } from './helpers/tcp-fault-proxy';

const COLLECTIONS = '/api/v1/arthropod/collection';
let db: Database;
let upstream: PublicLikeUpstream;
let proxy: TcpFaultProxy;
let bff: RunningBff;
let api: ReturnType<typeof appRequest>;
let cookie: string;

beforeAll(async () => {
  db = await openTestDatabase();
  // 152 collections, listed oldest first in pages of 100, filters and sort ignored.
  upstream = await startPublicLikeUpstream({ extraCollections: 150 });
  proxy = await startTcpFaultProxy(upstream.url);
  bff = await startBff({ db, upstreamUrl: proxy.url, staticRoot: null });
  api = appRequest(bff.url);
  const res = await api('/api/session', {
    method: 'POST',
    body: { username: 'field-tech', password: PUBLIC_PASSWORD },
  });
  cookie = cookieFrom(res) ?? '';
});
afterAll(async () => {
  await proxy?.close();
  await bff?.close();
  await upstream?.close();
  await db?.close();
});

const stored = (date: unknown) =>
  upstream.collections.filter(
    (c) => c.collection_date === `${String(date)}T00:00:00.000Z` && c.num_trap !== undefined,
  );
const create = (body: unknown, key: string) =>
  api(COLLECTIONS, { method: 'POST', cookie, headers: { 'idempotency-key': key }, body });

describe('reconciling a create with an upstream that ignores filters and pages oldest first', () => {
  it('finds the record on a later page after a lost answer and replays it instead of creating a duplicate', async () => {
    const body = makeCollection();
    const key = crypto.randomUUID();
    const lost = proxy.arm('POST', '/v1/arthropod/collection', 'drop');
    const first = await create(body, key);
    await lost;
    expect(first.status).toBe(502);
    expect(stored(body.collection_date)).toHaveLength(1);
    const retry = await create(body, key);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json<{ id: number }>().id).toBe(stored(body.collection_date)[0].id);
    expect(stored(body.collection_date)).toHaveLength(1);
  });

  it('forwards again only after paging through every row without finding the record', async () => {
    const body = makeCollection();
    const key = crypto.randomUUID();
    // A BFF that claimed the key and died before its request left, long enough ago that the
    // request cannot still be running upstream (its lease is over).
    const dead = new IdempotencyJournal(db, 0, () => new Date(Date.now() - 10 * 60_000));
    const claim = await dead.claim({
      agencyId: PUBLIC_AGENCY.id,
      key,
      method: 'POST',
      path: '/v1/arthropod/collection',
      body: canonicalJson(body),
    });
    expect(claim.kind).toBe('forward');
    const before = upstream.queries.get('/v1/arthropod/collection')?.length ?? 0;
    const retry = await create(body, key);
    // This upstream answers creates with 200; the BFF passes it unchanged.
    expect(retry.status).toBe(200);
    expect(stored(body.collection_date)).toHaveLength(1);
    const lists = (upstream.queries.get('/v1/arthropod/collection') ?? []).slice(before);
    expect(lists.length).toBeGreaterThanOrEqual(2);
    expect(lists.some((q) => /(^|&)page=2(&|$)/.test(q))).toBe(true);
  });
});
