import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TraplineDb } from '../../../src/client/db/database';
import { DEFAULT_BACKOFF } from '../../../src/client/sync/backoff';
import { drainOutbox } from '../../../src/client/sync/drain-outbox';
import type { SyncContext } from '../../../src/client/sync/sync-context';
import { countOutboxReads } from './helpers/count-outbox-reads';
import { countWriteTransactions } from './helpers/count-transactions';
import { FakeBff } from './helpers/fake-bff';
import { makeDb, queueCreate, site } from './helpers/outbox-factory';

const ENTRIES = 1_000;
const opened: TraplineDb[] = [];

afterEach(async () => {
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
  vi.unstubAllGlobals();
});

function contextFor(db: TraplineDb): SyncContext {
  return {
    db,
    baseUrl: '',
    headers: {},
    now: Date.now,
    random: Math.random,
    backoff: DEFAULT_BACKOFF,
    timeoutMs: 30_000,
  };
}

const hooks = {
  concurrency: 3,
  shouldStop: () => false,
  onPause: () => undefined,
  onAcknowledged: () => undefined,
  onProgress: () => undefined,
  onInFlight: () => undefined,
};

describe('drain, linear in the queue', () => {
  // Each entry waits on the one before it, so after every answer two of the three slots are
  // free with nothing to fill them: a drain that re-reads the whole outbox to fill a free slot
  // reads it a thousand times (half a million rows) here.
  it('drains 1,000 entries waiting on each other with the outbox read whole at most twice', async () => {
    const db = makeDb();
    opened.push(db);
    const reads = countOutboxReads(db);
    const writes = countWriteTransactions(db);
    const bff = new FakeBff();
    vi.stubGlobal('fetch', bff.fetch);
    const ids: string[] = [];
    for (let i = 0; i < ENTRIES; i += 1) {
      const { entryId } = await queueCreate(db, 'site', site(i), null, ids.slice(-1));
      ids.push(entryId);
    }
    const before = { ...reads };
    const writesBefore = writes.readwrite;

    const result = await drainOutbox(contextFor(db), hooks);

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
  }, 120_000);
});
