/**
 * A week offline (issue 13, item 2): CHAINS chains of site → collection → 2 pools → a test of
 * each pool (6 creates a chain; DRAIN_SHAPE=4 for site → collection → pool → test) queued in
 * the tablet's outbox by the real repositories (children name their parent by localId, resolved
 * at send time), drained by the real sync engine (started as the app starts it, status counts
 * included) through the real BFF and records service. Against it, in the same run: an ideal
 * client sending the same creates with the same concurrency in dependency order, knowing the
 * ids, with no bookkeeping at all; timed before and after the drain, compared with their mean.
 * Also printed: what the drain read from the outbox (full-table reads and rows), which grows
 * with the square of the queue when the drain re-reads it per send.
 *
 * `DRAIN_CHAINS=200 npm run bench -- drain-chains` for a quicker run.
 */
import 'fake-indexeddb/auto';
import { createCollection } from '../../src/client/db/create-collection';
import { createPools } from '../../src/client/db/create-pools';
import { createPoolTest } from '../../src/client/db/create-pool-test';
import { createSite } from '../../src/client/db/create-site';
import { TraplineDb } from '../../src/client/db/database';
import { createSyncEngine } from '../../src/client/sync';
import { MinHeap } from '../../src/client/sync/min-heap';
import {
  METHOD_ID,
  PRECISION_ID,
  SEX_ID,
  SPECIES_ID,
  STATUS_ID,
  TARGET_ID,
  TRAP_ID,
} from '../../src/server/records/seed/lookup-data';
import { countOutboxReads } from '../client/sync/helpers/count-outbox-reads';
import { countWriteTransactions } from '../client/sync/helpers/count-transactions';
import { startDrainStack, type DrainStack } from './drain-stack';
import type { BenchRow } from './run';

const CHAINS = Number(process.env.DRAIN_CHAINS ?? 1000);
const POOLS = process.env.DRAIN_SHAPE === '4' ? 1 : 2;
export const PER_CHAIN = 2 + 2 * POOLS;
/** The sync engine's default concurrency, which the ideal clients use too. */
export const CONCURRENCY = 3;
const PASSWORD = 'bench-password-drain-chains';
const DEMO_AGENCY = 1;

type Kind = 'site' | 'collection' | 'pool' | 'poolTest';
const PATH: Record<Kind, string> = {
  site: '/site',
  collection: '/arthropod/collection',
  pool: '/arthropod/pool',
  poolTest: '/arthropod/pool/test',
};
const PARENT_FIELD: Record<Kind, string | null> = {
  site: null,
  collection: 'site',
  pool: 'collection',
  poolTest: 'pool',
};

let nextCode = 200000;
const siteBody = (i: number) => ({
  code: String(nextCode++),
  name: `Week offline ${i}`,
  coordinate_precision: PRECISION_ID.gps,
  shape: { type: 'Point', coordinates: [-121.49 + (i % 100) / 1000, 38.58] },
});
const collectionBody = (i: number) => ({
  collection_date: `2026-07-${String(1 + (i % 28)).padStart(2, '0')}T06:30:00-07:00`,
  num_trap: 1,
  trap: TRAP_ID.co2,
  trap_nights: 1,
  arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 120 }],
});
const poolBody = () => ({ num_count: 25, species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed });
const poolTestBody = () => ({
  method: METHOD_ID.rtPcr,
  target: TARGET_ID.wnv,
  status: STATUS_ID.negative,
  test_date: '2026-07-30',
  test_agency: DEMO_AGENCY,
});

/** One chain's creates, parents before children; `parent` indexes into the same list. */
function chainNodes(i: number): { kind: Kind; body: Record<string, unknown>; parent: number }[] {
  const nodes: { kind: Kind; body: Record<string, unknown>; parent: number }[] = [
    { kind: 'site', body: siteBody(i), parent: -1 },
    { kind: 'collection', body: collectionBody(i), parent: 0 },
  ];
  for (let p = 0; p < POOLS; p += 1) nodes.push({ kind: 'pool', body: poolBody(), parent: 1 });
  for (let p = 0; p < POOLS; p += 1)
    nodes.push({ kind: 'poolTest', body: poolTestBody(), parent: 2 + p });
  return nodes;
}

/**
 * Every create of `chains` chains in one list, parents before children: the request path, the
 * body, the index of the parent whose answered id goes into `field`. What an ideal client sends.
 */
export function idealPlan(
  chains: number,
): { path: string; body: Record<string, unknown>; parent: number; field: string | null }[] {
  return Array.from({ length: chains }, (_, i) => chainNodes(i)).flatMap((chain, c) =>
    chain.map((n) => ({
      path: PATH[n.kind],
      body: n.body,
      parent: n.parent < 0 ? -1 : c * PER_CHAIN + n.parent,
      field: PARENT_FIELD[n.kind],
    })),
  );
}

type Timed = { ms: number; cpuMs: number; freshPages: number };

const kilo = (n: number) => `${(n / 1000).toFixed(0)}k`;

/**
 * Wall-clock, this process's CPU time (every thread) and the fresh pages it was handed (minor
 * page faults: dear on a machine slow to hand out memory, test/bench/fresh-memory.ts) from now
 * to stop().
 */
function startTimer(): { stop(): Timed } {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const faults = process.resourceUsage().minorPageFault;
  return {
    stop() {
      const used = process.cpuUsage(cpu);
      return {
        ms: performance.now() - wall,
        cpuMs: (used.user + used.system) / 1000,
        freshPages: process.resourceUsage().minorPageFault - faults,
      };
    },
  };
}

/** Queues the chains as the app's forms would: one repository call per save. */
export async function queueChains(db: TraplineDb, chains: number) {
  for (let i = 0; i < chains; i += 1) {
    const site = await createSite(db, siteBody(i) as never);
    const collection = await createCollection(db, site, collectionBody(i) as never);
    const pools = await createPools(
      db,
      collection,
      Array.from({ length: POOLS }, () => poolBody() as never),
    );
    for (const pool of pools) await createPoolTest(db, pool, poolTestBody() as never);
  }
}

/**
 * The ideal client: every create of every chain, CONCURRENCY at a time, a child sent as soon as
 * its parent's answer gave the id, oldest ready first (the drain's order), nothing stored.
 */
export async function idealClient(stack: DrainStack, chains: number): Promise<Timed> {
  const plan = idealPlan(chains);
  const children = new Map<number, number[]>();
  plan.forEach((n, i) => {
    if (n.parent >= 0) children.set(n.parent, [...(children.get(n.parent) ?? []), i]);
  });
  const ids: number[] = [];
  const ready = new MinHeap<number>((a, b) => a < b);
  plan.forEach((n, i) => n.parent < 0 && ready.push(i));
  let running = 0;
  const started = startTimer();
  await new Promise<void>((resolve, reject) => {
    const fill = () => {
      if (ready.size === 0 && running === 0) resolve();
      while (running < CONCURRENCY && ready.size > 0) {
        const i = ready.pop() as number;
        const node = plan[i];
        const body = node.field ? { ...node.body, [node.field]: ids[node.parent] } : node.body;
        running += 1;
        stack.post(node.path, body).then((record) => {
          ids[i] = record.id;
          running -= 1;
          for (const child of children.get(i) ?? []) ready.push(child);
          fill();
        }, reject);
      }
    };
    fill();
  });
  return started.stop();
}

async function drainWithEngine(stack: DrainStack, chains: number) {
  const tablet = new TraplineDb(`trapline-bench-chains-${Date.now()}`);
  const reads = countOutboxReads(tablet);
  const transactions = countWriteTransactions(tablet);
  try {
    const queueStart = performance.now();
    await queueChains(tablet, chains);
    const queueMs = performance.now() - queueStart;
    const queued = await tablet.outbox.count();
    const before = { full: reads.full, ranged: reads.ranged, rows: reads.rows };
    const writesBefore = transactions.readwrite;
    const engine = createSyncEngine(tablet, {
      baseUrl: stack.bffUrl,
      headers: stack.headers,
      concurrency: CONCURRENCY,
      channelName: null,
      autoPull: false,
    });
    const started = startTimer();
    engine.start();
    await engine.settled();
    const drainTime = started.stop();
    engine.stop();
    return {
      queueMs,
      queued,
      drainMs: drainTime.ms,
      drainCpuMs: drainTime.cpuMs,
      drainFreshPages: drainTime.freshPages,
      left: await tablet.outbox.count(),
      fullReads: reads.full - before.full,
      rangedReads: reads.ranged - before.ranged,
      rowsRead: reads.rows - before.rows,
      writeTransactions: transactions.readwrite - writesBefore,
    };
  } finally {
    tablet.close();
    await tablet.delete();
  }
}

export async function benchDrainChains(): Promise<BenchRow[]> {
  const stack = await startDrainStack(PASSWORD);
  try {
    // Warm-up: JIT, connections and PGlite's caches.
    await idealClient(stack, Math.min(50, CHAINS));
    const counts = async () =>
      Promise.all((Object.keys(PATH) as Kind[]).map((k) => stack.count(PATH[k])));
    const idealBefore = await idealClient(stack, CHAINS);
    const beforeDrain = await counts();
    const drain = await drainWithEngine(stack, CHAINS);
    const afterDrain = await counts();
    const idealAfter = await idealClient(stack, CHAINS);
    const ideal = (idealBefore.ms + idealAfter.ms) / 2;
    const idealCpu = (idealBefore.cpuMs + idealAfter.cpuMs) / 2;
    const created = afterDrain.reduce((sum, n, k) => sum + n - beforeDrain[k], 0);
    const requests = CHAINS * PER_CHAIN;
    const shape =
      POOLS === 2 ? 'site → collection → 2 pools → 2 tests' : 'site → collection → pool → test';
    return [
      { name: `drain chains: ${CHAINS} × (${shape})`, value: requests, unit: 'requests' },
      {
        name: 'drain chains: queue them through the repositories',
        value: drain.queueMs,
        unit: 'ms',
      },
      { name: 'drain chains: sync engine drain', value: drain.drainMs, unit: 'ms' },
      { name: 'drain chains: ideal client, before the drain', value: idealBefore.ms, unit: 'ms' },
      { name: 'drain chains: ideal client, after the drain', value: idealAfter.ms, unit: 'ms' },
      {
        name: 'drain chains: sync engine / ideal client (mean)',
        value: drain.drainMs / ideal,
        unit: 'x',
        goal: { atMost: 1.3 },
        note: `vs before ${(drain.drainMs / idealBefore.ms).toFixed(2)}, vs after ${(drain.drainMs / idealAfter.ms).toFixed(2)}: far apart when the machine's load changed during the run`,
      },
      {
        // Servers and client share this process, which is busy throughout (concurrency 3 keeps
        // the records service working): its CPU time is the work done, whatever else the
        // machine runs meanwhile, so this ratio holds where the wall-clock one swings with load.
        name: 'drain chains: sync engine / ideal client, CPU time of the process',
        value: drain.drainCpuMs / idealCpu,
        unit: 'x',
        goal: { atMost: 1.3 },
        note:
          `drain ${(drain.drainCpuMs / 1000).toFixed(1)} s CPU, ideal ${(idealBefore.cpuMs / 1000).toFixed(1)} / ${(idealAfter.cpuMs / 1000).toFixed(1)} s; ` +
          `fresh pages: drain ${kilo(drain.drainFreshPages)}, ideal ${kilo(idealBefore.freshPages)} / ${kilo(idealAfter.freshPages)}`,
      },
      {
        name: 'drain chains: sync engine requests per second',
        value: (requests / drain.drainMs) * 1000,
        unit: 'req/s',
      },
      {
        name: 'drain chains: records created by the drain',
        value: created,
        unit: `of ${drain.queued} queued`,
      },
      { name: 'drain chains: entries left in the outbox', value: drain.left, unit: 'entries' },
      {
        name: 'drain chains: full outbox reads while draining (all readers)',
        value: drain.fullReads,
        unit: 'reads',
      },
      {
        name: 'drain chains: ranged outbox reads while draining',
        value: drain.rangedReads,
        unit: 'reads',
      },
      {
        name: 'drain chains: outbox rows read while draining',
        value: drain.rowsRead,
        unit: 'rows',
      },
      {
        // Each one a commit to disk on a tablet (strict durability).
        name: 'drain chains: write transactions per entry sent',
        value: drain.writeTransactions / drain.queued,
        unit: 'transactions',
      },
      {
        name: 'machine load average (1 min)',
        value: (await import('node:os')).loadavg()[0],
        unit: '',
      },
    ];
  } finally {
    await stack.close();
  }
}
