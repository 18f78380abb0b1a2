import { describe, expect, it } from 'vitest';
import { drainOutbox } from '../../../src/client/sync/drain-outbox';
import { countIdbRequests } from './helpers/count-idb-requests';
import { countWriteTransactions } from './helpers/count-transactions';
import { collection, pool, poolTest, queueCreate, site } from './helpers/outbox-factory';
import { setupDrain } from './helpers/setup-drain';

/**
 * What the drain asks of IndexedDB per entry it sends (issue 40, item 2). On a tablet the
 * browser's IndexedDB backend, not the network, set the drain's pace: each request is a hop to
 * the browser process, each read-write transaction a commit. A queue of chains (site →
 * collection → two pools → a test of each), all creates, as a week offline leaves it.
 */
async function queueChains(db: Parameters<typeof queueCreate>[0], chains: number) {
  for (let i = 0; i < chains; i += 1) {
    const s = await queueCreate(db, 'site', site(i));
    const c = await queueCreate(db, 'collection', collection(), s.localId);
    for (let p = 0; p < 2; p += 1) {
      const pl = await queueCreate(db, 'pool', pool(), c.localId);
      await queueCreate(db, 'poolTest', poolTest(), pl.localId);
    }
  }
}

describe('the drain’s IndexedDB work per entry', () => {
  it('is a few requests in one read-write transaction per acknowledged create', async () => {
    const { db, ctx, hooks } = setupDrain();
    const transactions = countWriteTransactions(db);
    await queueChains(db, 20);
    const entries = await db.outbox.count();
    const idb = countIdbRequests();
    const writesBefore = transactions.readwrite;

    const { sent } = await drainOutbox(ctx, hooks);
    const readwrite = transactions.readwrite - writesBefore;

    expect(sent).toBe(entries);
    expect(await db.outbox.count()).toBe(0);
    const perEntry = (idb.requests + idb.cursorSteps) / entries;
    const byKind = Object.fromEntries(
      [...idb.byKind].sort((a, b) => b[1] - a[1]).map(([k, n]) => [k, +(n / entries).toFixed(2)]),
    );
    console.log(
      `per entry: ${perEntry.toFixed(2)} requests (${(idb.cursorSteps / entries).toFixed(2)} cursor steps), ` +
        `${(readwrite / entries).toFixed(2)} read-write transactions`,
      byKind,
    );
    // At most one commit per entry (answers that arrive together share one).
    expect(readwrite / entries).toBeLessThanOrEqual(1);
    // Six an entry: its delete, its record's other entries (syncState, later edits), its record
    // read and written (another tab's edit of it is kept), and the child its answer releases,
    // read and marked as being sent. It was seven: each acknowledged create also looked for a
    // pulled copy of its record, which only a key that may have reached the server before can have.
    expect(perEntry).toBeLessThan(6.5);
  });
});
