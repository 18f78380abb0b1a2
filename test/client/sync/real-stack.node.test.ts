/**
 * The engine against the real BFF and records service (PGlite in memory, real HTTP on port 0):
 * no fetch stub. Checks what a stub cannot: the payloads the engine builds are the ones the
 * records service accepts, its refusals park with its own words, conflicts and pulls work on
 * real `updated` values.
 */
import { describe, expect, it } from 'vitest';
import { SPECIES_ID } from '../../../src/server/records/seed/lookup-data';
import { queueCreate, queueUpdate, storeSynced } from './helpers/outbox-factory';
import { rtPcrTest, siteBody, tarsalis, trapNight } from './helpers/record-bodies';
import { tabletsOnStack } from './helpers/tablets-on-stack';

const { world, tablet } = tabletsOnStack('real');

async function api<T>(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${world.stack.appUrl}/api/v1${path}`, {
    method,
    headers: {
      ...world.headers,
      'X-CSRF': '1',
      ...(body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as T };
}

let codeSeq = 0;
const siteData = () => siteBody(810000 + (codeSeq += 1), `Sync site ${codeSeq}`);
const today = new Date().toISOString().slice(0, 10);

describe('sync engine against the real BFF and records service', () => {
  it('sends a site, its collection, a pool and a pool test, in order, each created once', async () => {
    const { db: t, engine } = tablet();
    const s = await queueCreate(t, 'site', siteData());
    const c = await queueCreate(
      t,
      'collection',
      { ...trapNight(today), arthropods: [tarsalis(40)] },
      s.localId,
    );
    const p = await queueCreate(t, 'pool', tarsalis(25), c.localId);
    await queueCreate(t, 'poolTest', rtPcrTest(today, world.agency), p.localId);

    engine.requestSync('test');
    await engine.settled();

    expect(await t.outbox.toArray()).toEqual([]);
    const siteRow = (await t.sites.get(s.localId))!;
    const collectionRow = (await t.collections.get(c.localId))!;
    const poolRow = (await t.pools.get(p.localId))!;
    const testRow = (await t.poolTests.toArray())[0];
    expect([siteRow, collectionRow, poolRow, testRow].map((r) => r.syncState)).toEqual([
      'synced',
      'synced',
      'synced',
      'synced',
    ]);
    const collection = await api<{ site: number }>(
      'GET',
      `/arthropod/collection/${collectionRow.serverId}`,
    );
    expect(collection.body.site).toBe(siteRow.serverId);
    const pool = await api<{ collection: number }>('GET', `/arthropod/pool/${poolRow.serverId}`);
    expect(pool.body.collection).toBe(collectionRow.serverId);
    const test = await api<{ pool: number }>('GET', `/arthropod/pool/test/${testRow.serverId}`);
    expect(test.body.pool).toBe(poolRow.serverId);
  });

  it('parks a site whose code is taken, with the service’s message, and sends the rest', async () => {
    const taken = siteData();
    expect((await api('POST', '/site', taken)).status).toBe(201);
    const { db: t, engine } = tablet();
    const dup = await queueCreate(t, 'site', { ...taken, name: 'Second try' });
    const ok = await queueCreate(t, 'site', siteData());
    engine.requestSync('test');
    await engine.settled();

    expect((await t.outbox.get(dup.entryId))?.state).toBe('parked');
    const row = await t.sites.get(dup.localId);
    expect(row?.syncState).toBe('failed');
    expect(row?.problem?.code).toBe('site_code_taken');
    expect(row?.problem?.message).toContain(taken.code);
    expect((await t.sites.get(ok.localId))?.syncState).toBe('synced');
  });

  it('detects a conflict on a real record and sends the user’s choice', async () => {
    const created = await api<Record<string, unknown> & { id: number; updated: string }>(
      'POST',
      '/site',
      {
        ...siteData(),
        comments: 'dry ditch',
      },
    );
    const { db: t, engine } = tablet();
    const localId = await storeSynced(t, 'site', created.body, {});
    const entryId = await queueUpdate(t, 'site', localId, { comments: 'standing water' });
    expect(
      (await api('PUT', `/site/${created.body.id}`, { comments: 'pump installed' })).status,
    ).toBe(200);

    engine.requestSync('test');
    await engine.settled();
    expect((await t.outbox.get(entryId))?.state).toBe('conflict');

    await engine.resolveConflict(entryId, { comments: 'mine' });
    await engine.settled();
    expect((await api<{ comments: string }>('GET', `/site/${created.body.id}`)).body.comments).toBe(
      'standing water',
    );
    expect(await t.sites.get(localId)).toMatchObject({ syncState: 'synced' });
  });

  it('pulls the agency’s sites and recent collections, then only what changed', async () => {
    const host = await api<{ id: number }>('POST', '/site', siteData());
    const recentCollection = { ...trapNight(today), site: host.body.id };
    expect((await api('POST', '/arthropod/collection', recentCollection)).status).toBe(201);
    const { db: t, engine } = tablet();
    await engine.pull();
    const all = await api<{ count: number }>('GET', '/site?pageSize=1');
    expect(await t.sites.count()).toBe(all.body.count);
    const recent = await api<{ count: number }>(
      'GET',
      `/arthropod/collection?pageSize=1&query[collection_date][$gte]=${new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10)}`,
    );
    expect(recent.body.count).toBeGreaterThan(0);
    expect(await t.collections.count()).toBe(recent.body.count);
    const pulled = (await t.collections.toArray()).find((c) => c.server?.site === host.body.id);
    const hostRow = await t.sites.where('serverId').equals(host.body.id).first();
    expect(pulled?.parentLocalId).toBe(hostRow?.localId);

    const added = await api<{ id: number }>('POST', '/site', siteData());
    await engine.pull();
    expect(await t.sites.count()).toBe(all.body.count + 1);
    expect(await t.sites.where('serverId').equals(added.body.id).first()).toMatchObject({
      syncState: 'synced',
    });
  });

  it('pulls the pools and pool tests of a collection made elsewhere, under that collection', async () => {
    const host = await api<{ id: number }>('POST', '/site', siteData());
    const made = await api<{ id: number }>('POST', '/arthropod/collection', {
      ...trapNight(today),
      site: host.body.id,
      arthropods: [tarsalis(40)],
    });
    expect(made.status).toBe(201);
    const madePool = await api<{ id: number }>('POST', '/arthropod/pool', {
      collection: made.body.id,
      ...tarsalis(25),
    });
    expect(madePool.status).toBe(201);
    const madeTest = await api<{ id: number }>('POST', '/arthropod/pool/test', {
      pool: madePool.body.id,
      ...rtPcrTest(today, world.agency),
    });
    expect(madeTest.status).toBe(201);
    const { db: t, engine } = tablet();

    await engine.pull();

    const collectionRow = (await t.collections.where('serverId').equals(made.body.id).first())!;
    const pools = await t.pools.where('parentLocalId').equals(collectionRow.localId).toArray();
    expect(pools.map((p) => p.serverId)).toEqual([madePool.body.id]);
    expect(pools[0].data).toMatchObject({ num_count: 25, species: SPECIES_ID.cxTarsalis });
    const tests = await t.poolTests.where('parentLocalId').equals(pools[0].localId).toArray();
    expect(tests.map((x) => x.serverId)).toEqual([madeTest.body.id]);
  });
});
