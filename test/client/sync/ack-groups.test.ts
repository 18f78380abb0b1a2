import { describe, expect, it, vi } from 'vitest';
import { drainOutbox } from '../../../src/client/sync/drain-outbox';
import { countWriteTransactions } from './helpers/count-transactions';
import { queueCreate, site } from './helpers/outbox-factory';
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
