import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBff, type RunningBff } from '../../../src/server/bff/app';
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
import { makeSite } from './helpers/record-bodies';
import { startTcpFaultProxy, type TcpFaultProxy } from './helpers/tcp-fault-proxy';

let db: Database;
let upstream: PublicLikeUpstream;
let proxy: TcpFaultProxy;
let bff: RunningBff;
let api: ReturnType<typeof appRequest>;
let cookie: string;

beforeAll(async () => {
  db = await openTestDatabase();
  upstream = await startPublicLikeUpstream();
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

describe('a public-service-like upstream (contract "tolerate")', () => {
  it('signs in without /v1/me: identity from the username and the first agency of the login', async () => {
    const res = await api('/api/session', { cookie });
    expect(res.status).toBe(200);
    const info = res.json<{ user: unknown; agency: unknown; expiresAt: string }>();
    expect(info.user).toMatchObject({ id: null, username: 'field-tech' });
    expect(info.agency).toEqual(PUBLIC_AGENCY);
    const inAnHour = Date.now() + 3600_000;
    expect(Math.abs(Date.parse(info.expiresAt) - inAnHour)).toBeLessThan(60_000);
  });

  it('answers a wrong password with invalid_credentials even when the upstream says so in plain text', async () => {
    const res = await api('/api/session', {
      method: 'POST',
      body: { username: 'field-tech', password: 'nope' },
    });
    expect(res.status).toBe(401);
    expect(res.json()).toMatchObject({ error: { code: 'invalid_credentials' } });
  });

  it('passes lists without count, elevations as strings or numbers and lures as IDs or objects unchanged', async () => {
    const sites = await api('/api/v1/site', { cookie });
    expect(sites.status).toBe(200);
    const body = sites.json<{ rows: Array<{ elevation: unknown }>; count?: number }>();
    expect(body.count).toBeUndefined();
    expect(body.rows.slice(0, 2).map((r) => r.elevation)).toEqual(['12.50', 7]);
    const collections = await api('/api/v1/arthropod/collection', { cookie });
    const lures = collections
      .json<{ rows: Array<{ lures: unknown[] }> }>()
      .rows.map((r) => r.lures);
    expect(typeof lures[0][0]).toBe('number');
    expect(lures[1][0]).toMatchObject({ lure: 3 });
  });

  it('never lets the upstream set a cookie in the browser', async () => {
    for (const res of [
      await api('/api/v1/site', { cookie }),
      await api('/api/v1/site/1', { cookie }),
    ]) {
      const cookies = [res.headers['set-cookie']].flat().filter(Boolean);
      expect(cookies).toEqual([]);
    }
  });

  it('passes a create answered 200, and replays it to a retry although the upstream ignores Idempotency-Key', async () => {
    const body = makeSite();
    const key = crypto.randomUUID();
    const first = await api('/api/v1/site', {
      method: 'POST',
      cookie,
      headers: { 'idempotency-key': key },
      body,
    });
    const again = await api('/api/v1/site', {
      method: 'POST',
      cookie,
      headers: { 'idempotency-key': key },
      body,
    });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(upstream.sites.filter((s) => s.code === body.code)).toHaveLength(1);
  });

  it('finds the site by code after a lost answer, so the journal alone prevents a duplicate', async () => {
    const body = makeSite();
    const key = crypto.randomUUID();
    const lost = proxy.arm('POST', '/v1/site', 'drop');
    const first = await api('/api/v1/site', {
      method: 'POST',
      cookie,
      headers: { 'idempotency-key': key },
      body,
    });
    await lost;
    expect(first.status).toBe(502);
    const retry = await api('/api/v1/site', {
      method: 'POST',
      cookie,
      headers: { 'idempotency-key': key },
      body,
    });
    expect(retry.status).toBe(201);
    expect(retry.json()).toMatchObject({ code: body.code, name: body.name });
    expect(upstream.sites.filter((s) => s.code === body.code)).toHaveLength(1);
  });

  it('turns an upstream 5xx into 502 upstream_unavailable without passing its body on', async () => {
    upstream.failNext(500);
    const res = await api('/api/v1/site', { cookie });
    expect(res.status).toBe(502);
    expect(res.json()).toMatchObject({
      error: { code: 'upstream_unavailable', message: expect.any(String) },
    });
    expect(res.text).not.toContain('/srv/app.js');
  });

  it('turns an upstream 401 into reauth_required', async () => {
    const other = await api('/api/session', {
      method: 'POST',
      body: { username: 'field-tech', password: PUBLIC_PASSWORD },
    });
    const c = cookieFrom(other);
    upstream.revokeTokens();
    const res = await api('/api/v1/site', { cookie: c });
    expect(res.status).toBe(401);
    expect(res.json()).toMatchObject({ error: { code: 'reauth_required' } });
    cookie =
      cookieFrom(
        await api('/api/session', {
          method: 'POST',
          body: { username: 'field-tech', password: PUBLIC_PASSWORD },
        }),
      ) ?? '';
  });
});

describe('GET /api/lookups against an upstream with only some lookup endpoints', () => {
  it('takes the lists the upstream has from it and the missing ones from the catalog', async () => {
    const res = await api('/api/lookups', { cookie });
    expect(res.status).toBe(200);
    const doc = res.json<
      Record<string, Array<{ id: number; name?: string; acronym?: string }>> & {
        fetched_at: string;
      }
    >();
    expect(doc.species.map((s) => s.id)).toEqual([501]);
    expect(doc.trap.map((t) => t.acronym)).toEqual(['CO2']);
    expect(doc.test_status.map((s) => s.name)).toEqual(
      expect.arrayContaining([
        'Confirmed',
        'Negative',
        'Pending',
        'Presumptive',
        'Inconclusive',
        'Other',
      ]),
    );
    expect(doc.land_usage.length).toBeGreaterThan(0);
    expect(doc.coordinate_precision.length).toBeGreaterThan(0);
    expect(doc.agency).toEqual([PUBLIC_AGENCY]);
    expect(Date.parse(doc.fetched_at)).not.toBeNaN();
  });

  it('answers 304 to If-None-Match with its strong ETag and serves from cache', async () => {
    const hitsBefore = upstream.hits.get('GET /v1/species') ?? 0;
    const first = await api('/api/lookups', { cookie });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await api('/api/lookups', { cookie, headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(upstream.hits.get('GET /v1/species') ?? 0).toBe(hitsBefore);
  });
});
