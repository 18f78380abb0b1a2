/**
 * A create whose answer was lost, sent again more than a day later. The BFF's journal and the
 * records service remember an Idempotency-Key for 24 hours (contract §9); after that the same
 * key is a new request, and the server makes a second record. The tablet must not send such a
 * create again on its own: it parks it for the technician to check ("may already be on the
 * server"), as when the BFF cannot tell.
 *
 * Real parts: the BFF and the records service on PGlite over HTTP, a tablet's engine on
 * fake-indexeddb, and a proxy at the network edge that loses one answer. Every clock (tablet,
 * BFF, records service) is moved a day on together, as it passes for a tablet left in a truck.
 * The two collections are look-alikes on purpose: same site, day, trap and counts.
 */
import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TraplineDb } from '../../../src/client/db/database';
import { sendParkedAgain } from '../../../src/client/db/update-record';
import { createSyncEngine, type SyncEngine } from '../../../src/client/sync';
import { startChaosProxy, type ChaosProxy } from '../../chaos/chaos-proxy';
import { queueCreate } from './helpers/outbox-factory';
import { browserSession } from './helpers/browser-session';
import { siteBody, tarsalis, trapNight } from './helpers/record-bodies';
import { recordsAndBff } from './helpers/records-and-bff';

const PASSWORD = 'key-window-password';
const HOUR = 3_600_000;
/** How far the servers' time has moved on (the day the tablet spends in a truck). */
let skewMs = 0;
const clock = () => Date.now() + skewMs;
/** How far the tablet's clock is ahead of the servers' (0 but in the clock test below). */
let tabletAheadMs = 0;
const tabletClock = () => clock() + tabletAheadMs;
const serversNow = () => new Date(clock());
const servers = recordsAndBff(PASSWORD, { records: serversNow, bff: serversNow });
let edge: ChaosProxy;
/** Answers still to be lost at the edge, for POSTs of collections. */
let dropCollectionAnswers = 0;
const engines: SyncEngine[] = [];
let tablet: TraplineDb;

beforeAll(async () => {
  edge = await startChaosProxy('edge', servers.bffUrl, {
    decide: (method, path) => {
      if (method !== 'POST' || path !== '/api/v1/arthropod/collection') return null;
      if (dropCollectionAnswers === 0) return null;
      dropCollectionAnswers -= 1;
      return { kind: 'drop-answer' };
    },
    injected: () => undefined,
    missed: () => undefined,
    kill: () => false,
  });
}, 60_000);

afterEach(async () => {
  for (const engine of engines.splice(0)) engine.stop();
  tablet?.close();
  await tablet?.delete();
});

afterAll(async () => {
  await edge?.close();
});

/** Signs in through the edge, as the app does. */
const signIn = async () => (await browserSession(edge.url, 'demo-tech', PASSWORD)).headers;

/** The app started on the tablet: an engine with the signed-in session, on the tablet's clock. */
function startApp(headers: Record<string, string>): SyncEngine {
  const engine = createSyncEngine(tablet, {
    baseUrl: edge.url,
    headers,
    autoPull: false,
    channelName: null,
    now: tabletClock,
    // A lost answer is retried only by Sync now here: the tablet is out of signal meanwhile.
    backoff: { baseMs: 10 * HOUR, capMs: 10 * HOUR },
  });
  engines.push(engine);
  return engine;
}

async function syncNow(engine: SyncEngine) {
  engine.requestSync('manual');
  await engine.settled();
}

async function waitFor(done: () => Promise<boolean>, ms = 10_000) {
  const until = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > until) throw new Error('waited too long');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const collectionsAt = async (site: number) =>
  Number(
    (
      await servers.db.query<{ n: string }>(
        'select count(*) as n from collection where site = $1 and deactive_date is null',
        [site],
      )
    ).rows[0].n,
  );

let codeSeq = 0;
const lookAlike = { ...trapNight('2026-07-14'), arthropods: [tarsalis(40)] };

/**
 * A site and two look-alike collections at it; the first collection's answer is lost. The
 * tablet's clock runs `tabletAhead` ms ahead of the servers' meanwhile.
 */
async function sendWithOneAnswerLost(tabletAhead = 0) {
  tablet = new TraplineDb(`trapline-key-window-${crypto.randomUUID()}`);
  skewMs = 0;
  tabletAheadMs = tabletAhead;
  const s = await queueCreate(
    tablet,
    'site',
    siteBody(830000 + (codeSeq += 1), `Key window site ${codeSeq}`),
  );
  const a = await queueCreate(tablet, 'collection', lookAlike, s.localId);
  const b = await queueCreate(tablet, 'collection', lookAlike, s.localId);
  dropCollectionAnswers = 1;
  const engine = startApp(await signIn());
  engine.requestSync('manual');
  // Settled, but for the entry whose answer was lost: it waits on its (long) backoff.
  await waitFor(async () => {
    const entries = await tablet.outbox.toArray();
    return entries.length === 1 && entries[0].lastError !== null && entries[0].state === 'pending';
  });
  engine.stop();
  expect(dropCollectionAnswers).toBe(0);
  const site = (await tablet.sites.get(s.localId))!.serverId!;
  // Both reached the server; one tablet entry is still waiting, its answer lost.
  expect(await collectionsAt(site)).toBe(2);
  const waiting = await tablet.outbox.toArray();
  expect(waiting).toHaveLength(1);
  const lost = waiting[0];
  expect([a.entryId, b.entryId]).toContain(lost.id);
  const other = lost.id === a.entryId ? b : a;
  const lostLocalId = lost.id === a.entryId ? a.localId : b.localId;
  expect((await tablet.collections.get(other.localId))?.syncState).toBe('synced');
  return { site, lostEntryId: lost.id, lostLocalId };
}

describe('a create whose answer was lost, sent again after the server forgot its key', () => {
  it(
    'is parked for the technician a day later, not sent again to make a second record',
    { timeout: 30_000 },
    async () => {
      const { site, lostEntryId, lostLocalId } = await sendWithOneAnswerLost();

      // A day and an hour later, back in signal, signed in again.
      skewMs = 25 * HOUR;
      const engine = startApp(await signIn());
      await syncNow(engine);

      expect(await collectionsAt(site)).toBe(2);
      expect(await tablet.outbox.get(lostEntryId)).toMatchObject({ state: 'parked' });
      const row = (await tablet.collections.get(lostLocalId))!;
      expect(row.serverId).toBeNull();
      expect(row.syncState).toBe('failed');
      expect(row.problem?.code).toBe('create_outcome_unknown');
      expect(row.problem?.message).toMatch(/more than a day ago/);
      expect(row.problem?.message).toMatch(/may already be on the server/i);

      // The technician checked and sends it again: a new key, a new record, as they were told.
      await sendParkedAgain(tablet, lostEntryId);
      await syncNow(engine);
      expect(await collectionsAt(site)).toBe(3);
      expect(await tablet.outbox.count()).toBe(0);
      expect((await tablet.collections.get(lostLocalId))?.syncState).toBe('synced');
    },
  );

  it(
    'is sent again with its key within the day, and the server answers with the first record',
    { timeout: 30_000 },
    async () => {
      const { site, lostEntryId, lostLocalId } = await sendWithOneAnswerLost();

      skewMs = 22 * HOUR;
      const engine = startApp(await signIn());
      await syncNow(engine);

      expect(await collectionsAt(site)).toBe(2);
      expect(await tablet.outbox.get(lostEntryId)).toBeUndefined();
      const row = (await tablet.collections.get(lostLocalId))!;
      expect(row.syncState).toBe('synced');
      const ids = (
        await servers.db.query<{ id: number }>('select id from collection where site = $1', [site])
      ).rows.map((r) => r.id);
      expect(ids).toContain(row.serverId);
    },
  );
});

/**
 * A create whose answer was lost while the tablet's clock ran ahead (set wrong by hand, a wrong
 * time zone: two days here), sent again after the clock was put right and more than a day had
 * passed. On the right clock the time since that first request looks shorter than it was
 * (negative here): the tablet must not trust the key on that reckoning, since the servers
 * remember it for 24 hours of their own clocks (contract §9), and a forgotten key makes a second
 * record. It parks the create for the technician to check, as it does a day after a lost answer.
 */
describe('a create whose answer was lost while the tablet clock ran ahead', () => {
  it(
    'is parked for the technician once the clock is put right a day later, not sent again to make a second record',
    { timeout: 30_000 },
    async () => {
      const { site, lostEntryId, lostLocalId } = await sendWithOneAnswerLost(48 * HOUR);

      // A day and an hour later, back in signal, the clock put right, signed in again.
      skewMs = 25 * HOUR;
      tabletAheadMs = 0;
      const engine = startApp(await signIn());
      await syncNow(engine);

      expect(await collectionsAt(site)).toBe(2);
      expect(await tablet.outbox.get(lostEntryId)).toMatchObject({ state: 'parked' });
      const row = (await tablet.collections.get(lostLocalId))!;
      expect(row.serverId).toBeNull();
      expect(row.problem?.code).toBe('create_outcome_unknown');
      expect(row.problem?.message).toMatch(/before the tablet's clock was changed/);
      expect(row.problem?.message).toMatch(/may already be on the server/i);
    },
  );
});
