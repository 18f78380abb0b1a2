import { describe, expect, it, vi } from 'vitest';
import { deleteEntry } from './helpers/outbox-entry';
import { collection, pool, queueCreate, site } from './helpers/outbox-factory';
import { drain, setupEngine } from './helpers/setup-engine';

describe('drain', () => {
  it('sends a site before its collection and resolves the collection’s site id at send time', async () => {
    const { db, bff, engine } = setupEngine();
    const s = await queueCreate(db, 'site', site(1));
    const c = await queueCreate(db, 'collection', collection(), s.localId);
    const p = await queueCreate(db, 'pool', pool(), c.localId);

    await drain(engine);

    const serverSite = bff.all('site')[0];
    const serverCollection = bff.all('collection')[0];
    expect(serverCollection.site).toBe(serverSite.id);
    expect(bff.all('pool')[0].collection).toBe(serverCollection.id);
    expect(bff.applied).toEqual([s.entryId, c.entryId, p.entryId]);
    expect(await db.outbox.count()).toBe(0);
    const row = await db.collections.get(c.localId);
    expect(row).toMatchObject({
      serverId: serverCollection.id,
      syncState: 'synced',
      baseUpdated: serverCollection.updated,
    });
    expect(engine.getStatus()).toMatchObject({ pending: 0, sending: 0, parked: 0 });
    expect(engine.getStatus().lastSuccessAt).not.toBeNull();
  });

  it('resolves a reference to a parent that was already synced before the child was saved', async () => {
    const { db, bff, engine } = setupEngine();
    const s = await queueCreate(db, 'site', site(1));
    await drain(engine);
    const c = await queueCreate(db, 'collection', collection(), s.localId);
    expect((await db.outbox.get(c.entryId))?.payload).not.toHaveProperty('site');
    await drain(engine);
    expect(bff.all('collection')[0].site).toBe(bff.all('site')[0].id);
  });

  it('sends independent entries three at a time', async () => {
    const { db, bff, engine } = setupEngine({}, 60);
    for (let i = 0; i < 10; i += 1) await queueCreate(db, 'site', site(i));
    await drain(engine);
    expect(bff.all('site')).toHaveLength(10);
    expect(bff.maxInFlight).toBe(3);
  });

  it('sends entries saved while a drain is running in that same drain', async () => {
    const { db, bff, engine } = setupEngine({}, 30);
    for (let i = 0; i < 4; i += 1) await queueCreate(db, 'site', site(i));
    let added = false;
    bff.onApply = () => {
      if (added) return;
      added = true;
      void queueCreate(db, 'site', site(10)).then((s) =>
        queueCreate(db, 'collection', collection(), s.localId),
      );
    };
    engine.requestSync('test');
    await vi.waitFor(() => expect(bff.all('collection')).toHaveLength(1));
    await engine.settled();
    expect(bff.all('site')).toHaveLength(5);
    expect(engine.getStatus().pending).toBe(0);
  });

  it('sends the POST with the entry id as Idempotency-Key and a frozen payload', async () => {
    const { db, bff, engine } = setupEngine();
    const s = await queueCreate(db, 'site', site(1));
    await drain(engine);
    const post = bff.requests.find((r) => r.method === 'POST');
    expect(post?.key).toBe(s.entryId);
    expect(post?.body).toEqual(site(1));
  });

  it('creates once when the answer to a POST is lost and the POST is retried', async () => {
    const { db, bff, engine } = setupEngine();
    const s = await queueCreate(db, 'site', site(1));
    let dropped = false;
    bff.fault = (req) => {
      if (req.method === 'POST' && !dropped) {
        dropped = true;
        return 'drop-after';
      }
      return null;
    };
    await drain(engine);
    expect(bff.requests.filter((r) => r.method === 'POST')).toHaveLength(2);
    expect(bff.postsFor(s.entryId)).toBe(1);
    expect(bff.all('site')).toHaveLength(1);
    expect((await db.sites.get(s.localId))?.serverId).toBe(bff.all('site')[0].id);
  });

  it('creates once, with its parent’s id, when an answer is cut off halfway through its body', async () => {
    // Two look-alike collections at one site: each answer's headers (201) arrive, then the
    // connection drops mid-body. An answer that was not read is no answer: each is sent again
    // with its key, and each record takes its own server id from the replay.
    const { db, bff, engine } = setupEngine();
    const s = await queueCreate(db, 'site', site(1));
    const first = await queueCreate(db, 'collection', collection(), s.localId);
    const second = await queueCreate(db, 'collection', collection(), s.localId);
    const cut = new Set<string>();
    bff.fault = (req) => {
      if (req.method !== 'POST' || !req.key || cut.has(req.key)) return null;
      cut.add(req.key);
      return 'cut-answer';
    };
    await drain(engine);
    expect(await db.outbox.count()).toBe(0);
    expect(bff.postsFor(s.entryId)).toBe(1);
    expect(bff.postsFor(first.entryId)).toBe(1);
    expect(bff.postsFor(second.entryId)).toBe(1);
    const [serverSite] = bff.all('site');
    expect((await db.sites.get(s.localId))?.serverId).toBe(serverSite.id);
    expect(bff.all('collection')).toHaveLength(2);
    for (const { localId, entryId } of [first, second]) {
      const row = await db.collections.get(localId);
      const id = bff.createdWith(entryId);
      expect(row?.syncState).toBe('synced');
      expect(row?.serverId).toBe(id);
      expect(bff.all('collection').find((c) => c.id === id)?.site).toBe(serverSite.id);
    }
    expect(new Set(bff.all('collection').map((c) => c.id)).size).toBe(2);
  });

  it('retries a key the server is still processing instead of parking it', async () => {
    const { db, bff, engine } = setupEngine();
    const s = await queueCreate(db, 'site', site(1));
    let busy = 2;
    bff.fault = () => (busy-- > 0 ? { status: 409, code: 'idempotency_in_flight' } : null);
    await drain(engine);
    expect(bff.postsFor(s.entryId)).toBe(1);
    expect(await db.outbox.count()).toBe(0);
  });

  it('parks a 409 with the server’s message, holds its dependents and keeps sending unrelated entries', async () => {
    const { db, bff, engine } = setupEngine();
    const taken = await queueCreate(db, 'site', site(1));
    const child = await queueCreate(db, 'collection', collection(), taken.localId);
    const grandchild = await queueCreate(db, 'pool', pool(), child.localId);
    const other = await queueCreate(db, 'site', site(2));
    const message = "Site code 100001 is already used by 'Putah Creek N' — pick another code";
    bff.fault = (req) =>
      req.method === 'POST' &&
      req.entity === 'site' &&
      (req.body as { code: string }).code === '100001'
        ? {
            status: 409,
            code: 'site_code_taken',
            message,
            fields: [{ path: 'code', message: 'Already used' }],
          }
        : null;

    await drain(engine);

    expect(bff.all('site').map((s) => s.code)).toEqual(['100002']);
    expect(bff.requests.filter((r) => r.entity !== 'site')).toHaveLength(0);
    expect((await db.outbox.get(taken.entryId))?.state).toBe('parked');
    expect(await db.outbox.get(child.entryId)).toMatchObject({ state: 'pending', attempts: 0 });
    expect(await db.outbox.get(other.entryId)).toBeUndefined();
    const row = await db.sites.get(taken.localId);
    expect(row?.syncState).toBe('failed');
    expect(row?.problem).toEqual({
      code: 'site_code_taken',
      message,
      fields: [{ path: 'code', message: 'Already used' }],
    });
    expect(engine.getStatus()).toMatchObject({ parked: 1, held: 2, pending: 0 });
    expect(grandchild.entryId).toBeTruthy();
  });

  it('parks a 422 and keeps the field errors for the form', async () => {
    const { db, bff, engine } = setupEngine();
    const c = await queueCreate(db, 'site', site(1));
    bff.fault = () => ({
      status: 422,
      code: 'validation_failed',
      message: 'name is required',
      fields: [{ path: 'name', message: 'Required' }],
    });
    await drain(engine);
    expect((await db.sites.get(c.localId))?.problem?.fields).toEqual([
      { path: 'name', message: 'Required' },
    ]);
    expect(bff.requests).toHaveLength(1);
  });

  it('pauses the whole queue on 401 reauth_required and continues after resume()', async () => {
    const { db, bff, engine } = setupEngine({ concurrency: 1 });
    for (let i = 0; i < 4; i += 1) await queueCreate(db, 'site', site(i));
    let signedIn = false;
    bff.fault = () =>
      signedIn ? null : { status: 401, code: 'reauth_required', message: 'Sign in again' };

    await drain(engine);
    expect(engine.getStatus().paused).toBe(true);
    expect(bff.requests).toHaveLength(1);
    expect(await db.outbox.count()).toBe(4);
    const first = (await db.outbox.toArray()).find((e) => e.lastError);
    expect(first).toMatchObject({ state: 'pending', attempts: 0, lastError: { reason: 'reauth' } });

    engine.requestSync('manual');
    await engine.settled();
    expect(bff.requests).toHaveLength(1);

    signedIn = true;
    engine.resume();
    await engine.settled();
    expect(engine.getStatus().paused).toBe(false);
    expect(bff.all('site')).toHaveLength(4);
    expect(await db.outbox.count()).toBe(0);
  });

  it('backs off after transient failures and acknowledges once the server answers', async () => {
    const { db, bff, engine } = setupEngine();
    const s = await queueCreate(db, 'site', site(1));
    const faults = [
      'drop-before',
      { status: 503 },
      { status: 429, code: 'rate_limited', retryAfter: '0' },
    ] as const;
    let n = 0;
    bff.fault = () => faults[n++] ?? null;
    await drain(engine);
    expect(bff.requests).toHaveLength(4);
    expect(bff.postsFor(s.entryId)).toBe(1);
    expect(await db.sites.get(s.localId)).toMatchObject({ syncState: 'synced' });
  });

  it('deletes on the server, and counts a record already gone there as deleted', async () => {
    const { db, bff, engine } = setupEngine();
    const a = await queueCreate(db, 'site', site(1));
    const b = await queueCreate(db, 'site', site(2));
    await drain(engine);
    for (const { localId } of [a, b]) {
      const row = await db.sites.get(localId);
      await db.outbox.add(deleteEntry(db.name, 'site', localId));
      expect(row?.serverId).toBeTruthy();
    }
    const goneId = (await db.sites.get(b.localId))!.serverId!;
    bff.records.get('site')!.delete(goneId);
    await drain(engine);
    expect(bff.all('site')).toHaveLength(0);
    expect(await db.sites.count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
  });
});
