import { describe, expect, it, vi } from 'vitest';
import { deleteRecord } from '../../../src/client/db/delete-record';
import { serverToData } from '../../../src/client/db/field-values';
import { updateRecord } from '../../../src/client/db/update-record';
import { createPool } from '../../../src/client/db/create-pool';
import { collection, pool, queueCreate, site, storeSynced } from './helpers/outbox-factory';
import { drain, setupEngine } from './helpers/setup-engine';
import { createWithLostAnswer, storePulledCopy } from './helpers/lost-answer';

/**
 * A collection's create is applied on the server and its answer lost; a pull then stores the
 * server's copy beside the tablet's own row (absorb-duplicate.test.ts starts from the same window).
 * The technician sees the same collection twice and edits, deletes or adds a pool to one of the
 * two: the synced-looking copy. When the create is finally acknowledged, the copy is folded into
 * the tablet's own row with everything saved on it: its edits and its delete go out once, in the
 * order they were saved, the row shows them, and a delete the server already applied leaves no
 * record on the tablet.
 */
async function lostAnswerThenPulledCopy(concurrency: number) {
  // Look-alike field work: two collections at the same site, same day, same trap.
  const { db, bff, engine, siteLocal, made, server, letThrough } =
    await createWithLostAnswer(concurrency);
  const copy = await storePulledCopy(db, server, siteLocal);
  /** `syncNow`: the technician taps Sync now (backoff cleared: the older create goes first). */
  const goOnline = async (syncNow = false) => {
    letThrough();
    engine.start();
    if (syncNow) {
      engine.requestSync('manual');
      await engine.settled();
    } else await drain(engine);
  };
  return { db, bff, server, made, copy, goOnline };
}

describe('what the technician saved on the pulled copy of a lost create', () => {
  it.each([
    ['the create is sent first (Sync now)', true],
    ['the edit is sent first (the create still backing off)', false],
  ])(
    'an edit of the pulled copy reaches the server and shows on the tablet: %s',
    async (_, syncNow) => {
      const { db, bff, server, made, copy, goOnline } = await lostAnswerThenPulledCopy(1);
      const row = await db.collections.get(copy);
      await updateRecord(db, 'collection', copy, {
        ...row!.data,
        comments: 'Two dead crows at the trap: WNV check',
      });

      // Deterministic order: Sync now clears the create's backoff (the older entry goes first);
      // otherwise the create still waits 300 ms on its backoff and the edit goes first.
      if (!syncNow) await db.outbox.update(made.entryId, { nextAttemptAt: Date.now() + 300 });
      await goOnline(syncNow);

      // The edit is on the server, nothing is left parked, and the one row the tablet keeps shows it.
      const parked = (await db.outbox.toArray()).map((e) => ({
        op: e.op,
        state: e.state,
        message: e.lastError?.body?.message,
      }));
      expect(parked).toEqual([]);
      expect(bff.get('collection', server.id)?.comments).toBe(
        'Two dead crows at the trap: WNV check',
      );
      const rows = await db.collections.toArray();
      expect(rows.map((r) => r.localId)).toEqual([made.localId]);
      expect(rows[0].data.comments).toBe('Two dead crows at the trap: WNV check');
    },
  );

  it('a delete of the pulled copy, sent before the create, leaves the record on neither side', async () => {
    const { db, bff, server, made, copy, goOnline } = await lostAnswerThenPulledCopy(3);
    await deleteRecord(db, 'collection', copy);
    // The create still backs off from its offline tries when the signal comes back.
    await db.outbox.update(made.entryId, { nextAttemptAt: Date.now() + 300 });

    await goOnline();

    // The delete reached the server first; the create's replayed answer then names a record the
    // server no longer has, and the tablet drops its row instead of showing it as synced.
    expect(bff.applied).toContain(`DELETE collection/${server.id}`);
    expect(bff.get('collection', server.id)).toBeUndefined();
    expect(await db.collections.toArray()).toEqual([]);
    expect(await db.outbox.toArray()).toEqual([]);
  });

  it('a delete of the pulled copy, sent after the create, deletes the one record', async () => {
    const { db, bff, server, copy, goOnline } = await lostAnswerThenPulledCopy(1);
    await deleteRecord(db, 'collection', copy);

    await goOnline(true);

    expect(bff.applied.filter((a) => a.startsWith('DELETE'))).toEqual([
      `DELETE collection/${server.id}`,
    ]);
    expect(bff.get('collection', server.id)).toBeUndefined();
    expect(await db.collections.toArray()).toEqual([]);
    expect(await db.outbox.toArray()).toEqual([]);
  });

  it('edits of both rows: each field ends as saved last, on the server and on the tablet', async () => {
    const { db, bff, server, made, copy, goOnline } = await lostAnswerThenPulledCopy(1);
    // First on the tablet's own row (its create is frozen: this is an update entry of its own),
    // then on the copy.
    const own = await db.collections.get(made.localId);
    await updateRecord(db, 'collection', made.localId, {
      ...own!.data,
      comments: 'Set at dusk',
      trap_nights: 2,
    });
    const pulled = await db.collections.get(copy);
    await updateRecord(db, 'collection', copy, { ...pulled!.data, comments: 'Trap light was out' });

    await goOnline(true);

    expect(await db.outbox.toArray()).toEqual([]);
    expect(bff.get('collection', server.id)).toMatchObject({
      comments: 'Trap light was out',
      trap_nights: 2,
    });
    const rows = await db.collections.toArray();
    expect(rows.map((r) => [r.localId, r.syncState])).toEqual([[made.localId, 'synced']]);
    expect(rows[0].data).toMatchObject({ comments: 'Trap light was out', trap_nights: 2 });
  });

  it('edits of both rows saved in the same millisecond: the field still ends as saved last', async () => {
    const { db, bff, server, made, copy, goOnline } = await lostAnswerThenPulledCopy(1);
    // Both saves in one millisecond (a fast tablet), and entry ids that sort the later save first:
    // the outbox orders entries by createdAt, ties by id.
    const at = vi.spyOn(Date, 'now').mockReturnValue(Date.parse('2026-07-15T05:00:00.000Z'));
    const ids = ['ffffffff-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];
    const uuid = vi.spyOn(crypto, 'randomUUID').mockImplementation(() => {
      const id = ids.shift();
      if (!id) throw new Error('more ids than the two saves');
      return id as ReturnType<Crypto['randomUUID']>;
    });
    const own = await db.collections.get(made.localId);
    await updateRecord(db, 'collection', made.localId, { ...own!.data, comments: 'Set at dusk' });
    const pulled = await db.collections.get(copy);
    await updateRecord(db, 'collection', copy, { ...pulled!.data, comments: 'Trap light was out' });
    uuid.mockRestore();
    at.mockRestore();

    await goOnline(true);

    expect(await db.outbox.toArray()).toEqual([]);
    expect(bff.get('collection', server.id)?.comments).toBe('Trap light was out');
    expect((await db.collections.get(made.localId))?.data.comments).toBe('Trap light was out');
  });

  it.each([
    ['an edit', 'PUT'],
    ['a delete', 'DELETE'],
  ])(
    '%s of the copy answered only after the create was acknowledged lands on the kept row',
    async (_, method) => {
      const { db, bff, server, made, copy, goOnline } = await lostAnswerThenPulledCopy(2);
      if (method === 'PUT') {
        const row = await db.collections.get(copy);
        await updateRecord(db, 'collection', copy, {
          ...row!.data,
          comments: 'Trap light was out',
        });
      } else await deleteRecord(db, 'collection', copy);
      // The copy's request leaves before the create's answer comes back, and its own answer
      // comes back after the create's acknowledgement moved its entry to the kept row.
      let copySent!: () => void;
      const copyRequestSent = new Promise<void>((resolve) => (copySent = resolve));
      vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
        if (init.method === 'POST') {
          await copyRequestSent;
          return bff.fetch(input, init);
        }
        if (init.method !== method) return bff.fetch(input, init);
        copySent();
        const answer = await bff.fetch(input, init);
        await vi.waitFor(async () => expect(await db.outbox.get(made.entryId)).toBeUndefined());
        return answer;
      });

      await goOnline(true);

      expect(await db.outbox.toArray()).toEqual([]);
      const rows = await db.collections.toArray();
      if (method === 'PUT') {
        expect(bff.get('collection', server.id)?.comments).toBe('Trap light was out');
        expect(rows.map((r) => [r.localId, r.syncState, r.data.comments])).toEqual([
          [made.localId, 'synced', 'Trap light was out'],
        ]);
        // The answer to the edit is the version the row is based on now.
        expect(rows[0].baseUpdated).toBe(bff.get('collection', server.id)?.updated);
      } else {
        expect(bff.get('collection', server.id)).toBeUndefined();
        expect(rows).toEqual([]);
      }
    },
  );

  it('a pool saved under the edited copy reaches the server (a WNV sample)', async () => {
    const { db, bff, server, copy, goOnline } = await lostAnswerThenPulledCopy(1);
    const row = await db.collections.get(copy);
    await updateRecord(db, 'collection', copy, { ...row!.data, comments: 'Trap light was out' });
    // The pool waits on the copy's edit (dependsOn: the parent's entries still queued).
    const poolLocal = await createPool(db, copy, pool() as never);

    await goOnline(true);

    const poolRow = await db.pools.get(poolLocal);
    const left = await db.outbox.toArray();
    expect({
      pool: { syncState: poolRow?.syncState },
      entriesLeft: left.map((e) => `${e.entity} ${e.op} ${e.state}`),
      poolsOnServer: bff.all('pool').map((p) => p.collection),
    }).toEqual({
      pool: { syncState: 'synced' },
      entriesLeft: [],
      poolsOnServer: [server.id],
    });
  });
});

describe('a delete acknowledged while a create of the same kind is unanswered', () => {
  it('removes the row when that create never lost an answer: no deleted row is kept for it', async () => {
    const { db, bff, engine } = setupEngine({ concurrency: 2 });
    const host = bff.seed('site', site(1));
    const siteLocal = await storeSynced(db, 'site', host, site(1));
    const old = bff.seed('collection', { ...collection('2026-07-13'), site: host.id });
    const oldLocal = await storeSynced(
      db,
      'collection',
      old,
      serverToData('collection', old),
      siteLocal,
    );
    const made = await queueCreate(db, 'collection', collection('2026-07-14'), siteLocal);
    await deleteRecord(db, 'collection', oldLocal);
    // The create's first request is under way while the delete is acknowledged.
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const answer = await bff.fetch(input, init);
      if (init.method === 'POST') {
        await vi.waitFor(async () => expect(await db.collections.get(oldLocal)).toBeUndefined());
      }
      return answer;
    });

    await drain(engine);

    expect(await db.outbox.toArray()).toEqual([]);
    expect((await db.collections.toArray()).map((c) => [c.localId, c.syncState])).toEqual([
      [made.localId, 'synced'],
    ]);
    expect(bff.get('collection', old.id)).toBeUndefined();
  });
});
