import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { drainOutbox } from '../../../src/client/sync/drain-outbox';
import { countWriteTransactions } from './helpers/count-transactions';
import { ENTITY } from '../../../src/shared/entities';
import {
  collection,
  pool,
  queueCreate,
  queueUpdate,
  site,
  storeSynced,
} from './helpers/outbox-factory';
import { setupDrain } from './helpers/setup-drain';

/**
 * Answers that arrive while an acknowledgement is being written share the next transaction
 * (group commit). The records are look-alikes on purpose (the same site, six times): a group
 * that stored one answer on another's record would pass any check of content.
 */
describe('acknowledgements written in groups', () => {
  it('stores answers that arrive together in fewer transactions, each on its own record', async () => {
    const { db, bff, ctx, hooks } = setupDrain();
    const transactions = countWriteTransactions(db);
    const queued = [];
    for (let i = 0; i < 6; i++) queued.push(await queueCreate(db, 'site', site(1)));
    // Hold each answer until three are waiting (or 200 ms), then let them all through at once.
    const answeredId = new Map<string, number>();
    let held: Array<() => void> = [];
    const release = () => {
      for (const go of held) go();
      held = [];
    };
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const answer = await bff.fetch(input, init);
      const key = new Headers(init.headers).get('Idempotency-Key') ?? '';
      answeredId.set(key, ((await answer.clone().json()) as { id: number }).id);
      await new Promise<void>((go) => {
        held.push(go);
        if (held.length === 3) release();
        else setTimeout(release, 200);
      });
      return answer;
    });
    const before = transactions.readwrite;

    const result = await drainOutbox(ctx, hooks);

    expect(result.sent).toBe(6);
    expect(await db.outbox.count()).toBe(0);
    // One mark per send, and fewer acknowledgement transactions than answers (one each before).
    expect(transactions.readwrite - before).toBeLessThan(12);
    for (const { localId, entryId } of queued) {
      expect(bff.postsFor(entryId)).toBe(1);
      const row = await db.sites.get(localId);
      expect(row).toMatchObject({ syncState: 'synced', serverId: answeredId.get(entryId) });
      expect(row?.server?.id).toBe(answeredId.get(entryId));
    }
    expect(new Set(queued.map(({ entryId }) => answeredId.get(entryId))).size).toBe(6);
  });

  it('writes a failed group again one by one: the failure stays with its own entry', async () => {
    const { db, bff, ctx, hooks } = setupDrain();
    const queued = [];
    for (let i = 0; i < 3; i++) queued.push(await queueCreate(db, 'site', site(1)));
    const failing = queued[1];
    // A storage failure no test can cause in fake-indexeddb otherwise: storing the server's id
    // on this one record throws, in the group and alone.
    db.sites.hook('updating', (changes, key) => {
      if (key === failing.localId && 'serverId' in (changes as object))
        throw new Error('disk said no');
    });
    let held: Array<() => void> = [];
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const answer = await bff.fetch(input, init);
      await new Promise<void>((go) => {
        held.push(go);
        if (held.length === 3) {
          for (const release of held) release();
          held = [];
        }
      });
      return answer;
    });

    const result = await drainOutbox(ctx, hooks);

    // The other two are acknowledged as if each had its own transaction.
    expect(result.sent).toBe(2);
    for (const { localId, entryId } of [queued[0], queued[2]]) {
      expect(await db.outbox.get(entryId)).toBeUndefined();
      expect(await db.sites.get(localId)).toMatchObject({ syncState: 'synced' });
    }
    // The failing one stays queued for a later drain, which the server will answer by replay.
    expect(await db.outbox.get(failing.entryId)).toMatchObject({ state: 'pending', attempts: 1 });
    expect((await db.sites.get(failing.localId))?.serverId).toBeNull();
    expect(queued.map(({ entryId }) => bff.postsFor(entryId))).toEqual([1, 1, 1]);
  });
});

/**
 * A collection whose create the server applied while its answer was lost, the copy of it a pull
 * then stored, an edit of that copy, and a pool saved under it. The edit's answer and the
 * replayed create's arrive together, the edit's first (after a third entry's, with `other`):
 * the edit's acknowledgement releases the pool, and the create's folds the copy (the pool's
 * parent) into the kept row. The pool must go out under the kept row.
 */
async function childOfAFoldedCopy({ other }: { other: boolean }) {
  const { db, bff, ctx, hooks } = setupDrain();
  const host = bff.seed('site', site(1));
  const siteLocalId = await storeSynced(db, 'site', host, site(1));
  const lost = await queueCreate(db, 'collection', collection(), siteLocalId);
  await bff.fetch(`/api${ENTITY.collection.path}`, {
    method: 'POST',
    headers: { 'Idempotency-Key': lost.entryId, 'content-type': 'application/json' },
    body: JSON.stringify({ ...collection(), site: host.id }),
  });
  // What the lost answer leaves on the tablet: the entry's request may have reached the server
  // (retryLater stamps keySentAt after a failure with no answer). Only such a create can find a
  // pulled copy of its record when it is acknowledged.
  await db.outbox.update(lost.entryId, { keySentAt: Date.now(), attempts: 1 });
  const [onServer] = bff.all('collection');
  const copy = await storeSynced(db, 'collection', onServer, collection(), siteLocalId);
  await queueUpdate(db, 'collection', copy, { num_trap: 2 });
  const child = await queueCreate(db, 'pool', pool(), copy);
  const third = other ? await queueCreate(db, 'site', site(9)) : null;
  // Answers held in slots, released together in slot order once every one expected is held.
  const held: Array<(() => void) | undefined> = [];
  const expected = other ? [0, 1, 2] : [1, 2];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const answer = await bff.fetch(input, init);
    const key = new Headers(init.headers).get('Idempotency-Key');
    const slot =
      key === third?.entryId ? 0 : init.method === 'PUT' ? 1 : key === lost.entryId ? 2 : -1;
    if (slot >= 0) await new Promise<void>((go) => (held[slot] = go));
    return answer;
  });
  const releasing = setInterval(() => {
    if (!expected.every((slot) => held[slot])) return;
    clearInterval(releasing);
    for (const release of held) release?.();
  }, 5);
  onTestFinished(() => clearInterval(releasing));

  await drainOutbox(ctx, hooks);

  expect(await db.outbox.count()).toBe(0);
  expect(bff.postsFor(child.entryId)).toBe(1);
  expect(bff.all('pool')[0]).toMatchObject({ collection: onServer.id });
  expect(await db.pools.get(child.localId)).toMatchObject({
    syncState: 'synced',
    parentLocalId: lost.localId,
  });
  expect(await db.collections.count()).toBe(1);
}

describe('a child released while its parent reference is being moved', () => {
  it('is sent under the kept row when both acknowledgements share a group', async () => {
    await childOfAFoldedCopy({ other: true });
  });

  it('is sent under the kept row when the fold commits between its mark and its send', async () => {
    await childOfAFoldedCopy({ other: false });
  });
});
