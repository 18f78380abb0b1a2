import { describe, expect, it } from 'vitest';
import { drainOutbox } from '../../../src/client/sync/drain-outbox';
import { countOutboxReads } from './helpers/count-outbox-reads';
import { countRecordWrites, countWriteTransactions } from './helpers/count-transactions';
import { queueCreate, site } from './helpers/outbox-factory';
import { setupDrain } from './helpers/setup-drain';

const ENTRIES = 1_000;

describe('drain, linear in the queue', () => {
  // Each entry waits on the one before it, so after every answer two of the three slots are
  // free with nothing to fill them: a drain that re-reads the whole outbox to fill a free slot
  // reads it a thousand times (half a million rows) here.
  it('drains 1,000 entries waiting on each other with the outbox read whole at most twice', async () => {
    const { db, bff, ctx, hooks } = setupDrain();
    const reads = countOutboxReads(db);
    const writes = countWriteTransactions(db);
    const recordWrites = countRecordWrites(db);
    const ids: string[] = [];
    for (let i = 0; i < ENTRIES; i += 1) {
      const { entryId } = await queueCreate(db, 'site', site(i), null, ids.slice(-1));
      ids.push(entryId);
    }
    const before = { ...reads };
    const writesBefore = writes.readwrite;
    const recordWritesBefore = recordWrites.writes;

    const result = await drainOutbox(ctx, hooks);

    expect(result.sent).toBe(ENTRIES);
    expect(await db.outbox.count()).toBe(0);
    // The server saw them in the order they wait on each other, each once.
    expect(bff.requests.map((r) => r.key)).toEqual(ids);
    // Read whole when the drain starts and before it ends; between, only what is new.
    expect(reads.full - before.full).toBeLessThanOrEqual(2);
    expect(reads.rows - before.rows).toBeLessThanOrEqual(4 * ENTRIES);
    // One commit per entry: each create is marked as being sent in the transaction that
    // acknowledges the one it waits on (only the first needs a transaction of its own).
    expect(writes.readwrite - writesBefore).toBeLessThanOrEqual(ENTRIES + 1);
    // Each record is written once, when its answer is stored: "Sending" is not stored on it.
    expect(recordWrites.writes - recordWritesBefore).toBe(ENTRIES);
  }, 120_000);
});
