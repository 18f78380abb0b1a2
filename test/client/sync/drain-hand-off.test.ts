import Dexie from 'dexie';
import { describe, expect, it, vi } from 'vitest';
import type { TraplineDb } from '../../../src/client/db/database';
import { deleteRecord } from '../../../src/client/db/delete-record';
import { discardEntry } from '../../../src/client/sync/discard-entry';
import { drainOutbox } from '../../../src/client/sync/drain-outbox';
import { countWriteTransactions } from './helpers/count-transactions';
import { collection, queueCreate, site } from './helpers/outbox-factory';
import { setupDrain } from './helpers/setup-drain';

/**
 * A create released by its parent's acknowledgement is marked as being sent in that same
 * transaction and sent next (one transaction per entry). Review found three ways that could go
 * wrong; each case here failed before its fix.
 */
/** Calls `fn` (outside the transaction) when the outbox entry `entryId` is deleted. */
function whenDeleted(db: TraplineDb, entryId: string, fn: () => void) {
  db.outbox.hook('deleting', (key) => {
    if (key === entryId) Dexie.ignoreTransaction(fn);
  });
}

describe('a child marked for sending by its parent’s acknowledgement', () => {
  it('cannot be discarded once marked, even by a caller that did not see it in flight', async () => {
    const { db, bff, ctx, hooks, inFlight } = setupDrain();
    const parent = await queueCreate(db, 'site', site(1));
    const child = await queueCreate(db, 'collection', collection(), parent.localId);
    let discarding: Promise<unknown> | null = null;
    // Discard the child while the parent's acknowledgement (which marks it) is being written.
    whenDeleted(db, parent.entryId, () => {
      discarding ??= discardEntry(ctx, child.entryId, [], inFlight()).then(
        () => 'discarded',
        (err: Error) => err.message,
      );
    });

    await drainOutbox(ctx, hooks);

    expect(await discarding).toMatch(/being sent/);
    // Sent once, and the tablet still holds what the server now has.
    expect(bff.postsFor(child.entryId)).toBe(1);
    expect(await db.collections.get(child.localId)).toMatchObject({ syncState: 'synced' });
  });

  it('goes back to waiting, unfrozen, when the drain stops before sending it', async () => {
    const { db, ctx, hooks } = setupDrain();
    const parent = await queueCreate(db, 'site', site(1));
    const child = await queueCreate(db, 'collection', collection(), parent.localId);
    let stop = false;
    whenDeleted(db, parent.entryId, () => {
      stop = true;
    });

    await drainOutbox(ctx, { ...hooks, shouldStop: () => stop });

    expect(await db.outbox.get(child.entryId)).toMatchObject({ state: 'pending', frozen: false });
    expect(await db.collections.get(child.localId)).toMatchObject({ syncState: 'queued' });
    // Never sent: deleting it removes it here, with nothing to tell the server.
    expect(await deleteRecord(db, 'collection', child.localId)).toBe('removed');
  });
});

describe('a create that waits on nothing, taken by an answer that released nothing', () => {
  it('is marked in that answer’s acknowledgement: one transaction per create', async () => {
    const { db, bff, ctx, hooks } = setupDrain();
    const transactions = countWriteTransactions(db);
    // Look-alikes: the same site five times, none waiting on another.
    const queued = [];
    for (let i = 0; i < 5; i++) queued.push(await queueCreate(db, 'site', site(1)));
    const before = transactions.readwrite;

    await drainOutbox(ctx, { ...hooks, concurrency: 1 });

    // The first is marked on its own; each later one in the acknowledgement before it.
    expect(transactions.readwrite - before).toBe(1 + queued.length);
    expect(queued.map(({ entryId }) => bff.postsFor(entryId))).toEqual([1, 1, 1, 1, 1]);
    const ids = await Promise.all(
      queued.map(async (q) => (await db.sites.get(q.localId))?.serverId),
    );
    expect(new Set(ids).size).toBe(queued.length);
    expect(await db.outbox.count()).toBe(0);
  });

  it('goes back to waiting, unfrozen, when the drain stops before sending it', async () => {
    const { db, bff, ctx, hooks } = setupDrain();
    const first = await queueCreate(db, 'site', site(1));
    const second = await queueCreate(db, 'site', site(1));
    let stop = false;
    whenDeleted(db, first.entryId, () => {
      stop = true;
    });

    await drainOutbox(ctx, { ...hooks, concurrency: 1, shouldStop: () => stop });

    expect(bff.postsFor(second.entryId)).toBe(0);
    expect(await db.outbox.get(second.entryId)).toMatchObject({ state: 'pending', frozen: false });
    // The next drain sends it, once.
    await drainOutbox(ctx, { ...hooks, concurrency: 1 });
    expect(bff.postsFor(second.entryId)).toBe(1);
    expect(await db.sites.get(second.localId)).toMatchObject({ syncState: 'synced' });
  });
});

describe('entries saved while a drain runs', () => {
  it('are sent within the look interval, not after a slow answer still in flight', async () => {
    const { db, bff, ctx, hooks } = setupDrain();
    const slow = await queueCreate(db, 'site', site(1));
    const fast = await queueCreate(db, 'site', site(2));
    const sentAt = new Map<string, number>();
    let slowAnsweredAt = 0;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const key = new Headers(init.headers).get('Idempotency-Key') ?? '';
      sentAt.set(key, Date.now());
      if (key !== slow.entryId) return bff.fetch(input, init);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const answer = await bff.fetch(input, init);
      slowAnsweredAt = Date.now();
      return answer;
    });

    const draining = drainOutbox(ctx, hooks);
    await vi.waitFor(() => expect(bff.postsFor(fast.entryId)).toBe(1));
    const saved = await queueCreate(db, 'site', site(3));
    await draining;

    expect(bff.postsFor(saved.entryId)).toBe(1);
    expect(sentAt.get(saved.entryId)).toBeLessThan(slowAnsweredAt);
  });
});
