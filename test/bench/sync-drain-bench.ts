/**
 * Draining the outbox through the real BFF and records service: 200 queued collections (children
 * of one synced site, referenced by localId and resolved at send time) sent by the sync engine,
 * against a plain client sending the same 200 POSTs (same bodies, Idempotency-Key, concurrency 3)
 * in the same run. The difference is the engine's bookkeeping: one Dexie transaction to freeze
 * each entry and one to acknowledge it (here on fake-indexeddb in Node, slower than a browser's
 * IndexedDB), plus the dependency checks.
 */
import 'fake-indexeddb/auto';
import { TraplineDb } from '../../src/client/db/database';
import { createSyncEngine } from '../../src/client/sync';
import type { OutboxEntry } from '../../src/shared';
import {
  PRECISION_ID,
  SEX_ID,
  SPECIES_ID,
  TRAP_ID,
} from '../../src/server/records/seed/lookup-data';
import { startDrainStack } from './drain-stack';
import type { BenchRow } from './run';

const ENTRIES = 200;
const CONCURRENCY = 3;
const PASSWORD = 'bench-password-sync';

function collectionBody(i: number): Record<string, unknown> {
  const day = String(1 + (i % 28)).padStart(2, '0');
  return {
    collection_date: `2026-07-${day}T06:30:00-07:00`,
    num_trap: 1,
    trap: TRAP_ID.co2,
    trap_nights: 1,
    arthropods: [
      { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 10 + i },
      { species: SPECIES_ID.cxPipiens, sex: SEX_ID.male, num_count: 3 },
    ],
  };
}

/** Stores the synced site and queues ENTRIES collection creates, as the repositories would. */
async function queueCollections(
  db: TraplineDb,
  site: Record<string, unknown> & { id: number; updated: string },
) {
  const siteLocalId = crypto.randomUUID();
  await db.sites.add({
    localId: siteLocalId,
    serverId: site.id,
    syncState: 'synced',
    data: {},
    server: site as never,
    baseUpdated: site.updated,
    parentLocalId: null,
    updatedAt: Date.now(),
    problem: null,
    code: String(site.code),
    name: String(site.name),
  });
  await db.transaction('rw', db.collections, db.outbox, async () => {
    for (let i = 0; i < ENTRIES; i += 1) {
      const localId = crypto.randomUUID();
      const data = collectionBody(i);
      await db.collections.add({
        localId,
        serverId: null,
        syncState: 'queued',
        data,
        server: null,
        baseUpdated: null,
        parentLocalId: siteLocalId,
        updatedAt: Date.now(),
        problem: null,
        collectionDate: String(data.collection_date),
      });
      const entry: OutboxEntry = {
        id: crypto.randomUUID(),
        entity: 'collection',
        localId,
        op: 'create',
        payload: data,
        refs: [{ field: 'site', entity: 'site', localId: siteLocalId }],
        dependsOn: [],
        baseUpdated: null,
        baseValues: null,
        state: 'pending',
        frozen: false,
        attempts: 0,
        nextAttemptAt: 0,
        lastError: null,
        createdAt: Date.now() + i,
        ownerKey: db.name,
      };
      await db.outbox.add(entry);
    }
  });
}

/** The same POSTs from a plain client: a pool of CONCURRENCY workers, no bookkeeping. */
async function plainClient(
  bffUrl: string,
  headers: Record<string, string>,
  siteId: number,
): Promise<number> {
  let next = 0;
  let failures = 0;
  const worker = async () => {
    while (next < ENTRIES) {
      const i = next++;
      const res = await fetch(`${bffUrl}/api/v1/arthropod/collection`, {
        method: 'POST',
        headers: {
          ...headers,
          'X-CSRF': '1',
          'Content-Type': 'application/json',
          'Idempotency-Key': crypto.randomUUID(),
        },
        body: JSON.stringify({ ...collectionBody(i), site: siteId }),
      });
      await res.arrayBuffer();
      if (!res.ok) failures += 1;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return failures;
}

export async function benchSyncDrain(): Promise<BenchRow[]> {
  const stack = await startDrainStack(PASSWORD);
  const { bffUrl, headers } = stack;
  const countCollections = () => stack.count('/arthropod/collection');
  const tablet = new TraplineDb(`trapline-bench-${Date.now()}`);
  try {
    const site = (await stack.post('/site', {
      code: '700101',
      name: 'Bench site',
      coordinate_precision: PRECISION_ID.gps,
      shape: { type: 'Point', coordinates: [-121.49, 38.58] },
    })) as Record<string, unknown> & { id: number; updated: string };

    // Warm-up: the first requests pay for JIT, connection setup and PGlite caches.
    const warmFailures = await plainClient(bffUrl, headers, site.id);
    const before = await countCollections();

    await queueCollections(tablet, site);
    const engine = createSyncEngine(tablet, {
      baseUrl: bffUrl,
      headers,
      concurrency: CONCURRENCY,
      channelName: null,
      autoPull: false,
    });
    const engineStart = performance.now();
    // start(): as in the app, with the live outbox query that feeds the status bar.
    engine.start();
    await engine.settled();
    const engineMs = performance.now() - engineStart;
    engine.stop();
    const left = await tablet.outbox.count();
    const afterEngine = await countCollections();

    const plainStart = performance.now();
    const plainFailures = await plainClient(bffUrl, headers, site.id);
    const plainMs = performance.now() - plainStart;
    const afterPlain = await countCollections();

    return [
      { name: `sync engine: drain ${ENTRIES} collections`, value: engineMs, unit: 'ms' },
      {
        name: 'sync engine: requests per second',
        value: (ENTRIES / engineMs) * 1000,
        unit: 'req/s',
      },
      { name: `plain client: same ${ENTRIES} POSTs`, value: plainMs, unit: 'ms' },
      {
        name: 'plain client: requests per second',
        value: (ENTRIES / plainMs) * 1000,
        unit: 'req/s',
      },
      { name: 'sync engine time / plain client time', value: engineMs / plainMs, unit: 'x' },
      {
        name: 'sync engine: collections created',
        value: afterEngine - before,
        unit: `of ${ENTRIES}`,
      },
      { name: 'sync engine: entries left in outbox', value: left, unit: 'entries' },
      {
        name: 'plain client: collections created',
        value: afterPlain - afterEngine,
        unit: `of ${ENTRIES}`,
      },
      {
        name: 'plain client: failed requests (incl. warm-up)',
        value: plainFailures + warmFailures,
        unit: 'requests',
      },
    ];
  } finally {
    tablet.close();
    await tablet.delete();
    await stack.close();
  }
}
