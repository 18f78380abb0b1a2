import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBff, startBff, type RunningBff } from '../../../src/server/bff/app';
import type { Database } from '../../../src/server/db/database';
import { openTestDatabase } from '../helpers/test-database';
import { cookieFrom } from './helpers/http';
import {
  PUBLIC_PASSWORD,
  startPublicLikeUpstream,
  type PublicLikeUpstream,
} from './helpers/public-like-upstream';
import { loadLookupCatalog } from '../../../src/server/bff/lookup-cache';
import { LOOKUP_NAMES, lookupsDocument } from '#shared/schemas/lookups';
import { appRequest, startBffStack, type BffStack } from './helpers/bff-stack';

let stack: BffStack;
beforeAll(async () => {
  stack = await startBffStack();
});
afterAll(async () => {
  await stack?.close();
});

const speciesFetches = () => stack.proxy.seen.filter((s) => s.path === '/v1/species').length;

describe('GET /api/lookups from the records service', () => {
  it('answers one document with every list, fetched with the user token from the upstream', async () => {
    const cookie = await stack.signIn('demo-tech');
    const res = await stack.api('/api/lookups', { cookie });
    expect(res.status).toBe(200);
    const doc = lookupsDocument.parse(res.json());
    for (const name of LOOKUP_NAMES) expect(doc[name].length, name).toBeGreaterThan(0);
    expect(doc.species.map((s) => s.full_name)).toContain('Culex tarsalis');
    expect(doc.trap.map((t) => t.acronym)).toEqual(
      expect.arrayContaining(['GRVD', 'CO2', 'OVI-PRES']),
    );
    expect(doc.agency.map((a) => a.name)).toContain('Demo Vector Control District');
    expect(res.headers['cache-control']).toBe('private, no-cache');
    const paths = stack.proxy.seen.map((s) => s.path);
    expect(paths).toEqual(
      expect.arrayContaining(['/v1/species', '/v1/test/status', '/v1/coordinate-precision']),
    );
  });

  it('answers 304 to its own strong ETag', async () => {
    const cookie = await stack.signIn('demo-tech');
    const first = await stack.api('/api/lookups', { cookie });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await stack.api('/api/lookups', { cookie, headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    const stale = await stack.api('/api/lookups', {
      cookie,
      headers: { 'if-none-match': '"something-else"' },
    });
    expect(stale.status).toBe(200);
  });

  it('caches per agency: a colleague reuses the document, another agency fetches its own', async () => {
    await stack.api('/api/lookups', { cookie: await stack.signIn('demo-tech') });
    const before = speciesFetches();
    await stack.api('/api/lookups', { cookie: await stack.signIn('demo-manager') });
    expect(speciesFetches()).toBe(before);
    await stack.api('/api/lookups', { cookie: await stack.signIn('neighbor-manager') });
    expect(speciesFetches()).toBe(before + 1);
  });

  it('refetches after the cache time, keeping the ETag while nothing changed', async () => {
    const quick = await stack.startSibling({ lookupTtlMs: 50 });
    const api = appRequest(quick.url);
    const cookie = await stack.signIn('demo-tech');
    const first = await api('/api/lookups', { cookie });
    await new Promise((r) => setTimeout(r, 100));
    const before = speciesFetches();
    const again = await api('/api/lookups', {
      cookie,
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(speciesFetches()).toBe(before + 1);
    expect(again.status).toBe(304);
  });

  it('needs a session', async () => {
    const res = await stack.api('/api/lookups');
    expect(res.status).toBe(401);
    expect(res.json()).toMatchObject({ error: { code: 'unauthenticated' } });
  });
});

describe('the lookup catalog file', () => {
  it('ships a default catalog with every list and valid rows', () => {
    const catalog = loadLookupCatalog();
    for (const name of LOOKUP_NAMES.filter((n) => n !== 'agency')) {
      expect(catalog[name]?.length, name).toBeGreaterThan(0);
    }
  });

  it('refuses to start with a catalog that does not fit the lookup schemas, naming the problem', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trapline-catalog-'));
    const file = join(dir, 'catalog.json');
    writeFileSync(file, JSON.stringify({ species: [{ id: 'one', full_name: 'Culex' }] }));
    try {
      await expect(
        buildBff({ db: stack.records.db, upstreamUrl: stack.recordsUrl, lookupCatalog: file }),
      ).rejects.toThrow(/catalog.*species\.0\.id/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('GET /api/lookups from a public-service-like upstream', () => {
  let db: Database;
  let upstream: PublicLikeUpstream;
  let bff: RunningBff;
  beforeAll(async () => {
    db = await openTestDatabase();
    upstream = await startPublicLikeUpstream({
      extraSpecies: 1_200,
      lookupStatus: { '/v1/sex': 405, '/v1/region': 501 },
    });
    bff = await startBff({ db, upstreamUrl: upstream.url, staticRoot: null });
  });
  afterAll(async () => {
    await bff?.close();
    await upstream?.close();
    await db?.close();
  });

  async function lookups() {
    const api = appRequest(bff.url);
    const signIn = await api('/api/session', {
      method: 'POST',
      body: { username: 'field-tech', password: PUBLIC_PASSWORD },
    });
    return api('/api/lookups', { cookie: cookieFrom(signIn) });
  }

  it('uses the catalog for a list whose endpoint answers 405 or 501, as for 404', async () => {
    const res = await lookups();
    expect(res.status).toBe(200);
    const doc = lookupsDocument.parse(res.json());
    const catalog = loadLookupCatalog();
    expect(doc.sex).toEqual(catalog.sex);
    expect(doc.region).toEqual(catalog.region);
    expect(doc.trap.map((t) => t.acronym)).toEqual(['CO2']);
  });

  it('pages through a list longer than one page instead of cutting it at 1000 rows', async () => {
    const res = await lookups();
    const doc = lookupsDocument.parse(res.json());
    expect(doc.species).toHaveLength(1_201);
    expect(new Set(doc.species.map((s) => s.id)).size).toBe(1_201);
    expect(doc.species.map((s) => s.full_name)).toContain('Aedes species 1199');
  });
});
