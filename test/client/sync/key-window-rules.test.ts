import { describe, expect, it } from 'vitest';
import type { TraplineDb } from '../../../src/client/db/database';
import type { SyncEngine } from '../../../src/client/sync';
import { KEY_TRUSTED_FOR_MS } from '../../../src/shared';
import { queueCreate, site } from './helpers/outbox-factory';
import { setupEngine } from './helpers/setup-engine';
import type { FakeBff } from './helpers/fake-bff';

/**
 * Which creates the tablet stops sending under their key once the servers may have forgotten it
 * (key-window.node.test.ts shows the second record it prevents, on the real servers): only those a
 * request may have reached. An answer that proves nothing was made (401, 429) leaves the key
 * trusted; so does a request that got no answer when it was sent again and answered in time.
 * Two sites alike but for their code, so one rule cannot pass for the other.
 */
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 6, 14, 6);

function tabletAt() {
  let now = T0;
  // Retries wait ten hours: within a test, only Sync now (or the clock) sends an entry again.
  const setup = setupEngine({
    now: () => now,
    backoff: { baseMs: 10 * HOUR, capMs: 10 * HOUR },
    concurrency: 1,
  });
  return { ...setup, later: (ms: number) => (now += ms) };
}

/** Waits until no entry is being sent and each has been tried (or acknowledged). */
async function tried(db: TraplineDb, engine: SyncEngine) {
  engine.requestSync('manual');
  const until = Date.now() + 10_000;
  for (;;) {
    const entries = await db.outbox.toArray();
    const status = engine.getStatus();
    if (status.sending === 0 && !status.draining && entries.every((e) => e.lastError !== null))
      return;
    if (Date.now() > until) throw new Error('the entries were never tried');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Requests sent with this key (the fake server applies the first and replays it to the rest). */
const sends = (bff: FakeBff, key: string) => bff.requests.filter((r) => r.key === key).length;

const parkedUnknown = {
  state: 'parked',
  lastError: { body: { code: 'create_outcome_unknown' } },
};

describe('a create sent again under its key', () => {
  it('is parked, not sent, once a day has passed since a request with no answer', async () => {
    const { db, bff, engine, later } = tabletAt();
    const lost = await queueCreate(db, 'site', site(1));
    bff.fault = (req) => (req.key === lost.entryId ? 'drop-after' : null);
    await tried(db, engine);
    expect(sends(bff, lost.entryId)).toBe(1);

    bff.fault = () => null;
    later(KEY_TRUSTED_FOR_MS + 60_000);
    const other = await queueCreate(db, 'site', site(2));
    engine.requestSync('manual');
    await engine.settled();

    expect(await db.outbox.get(lost.entryId)).toMatchObject(parkedUnknown);
    expect(sends(bff, lost.entryId)).toBe(1);
    // A site saved since, alike but for its code, goes as usual.
    expect(sends(bff, other.entryId)).toBe(1);
    expect(await db.outbox.get(other.entryId)).toBeUndefined();
  });

  it('is sent with its key within the day after a request with no answer', async () => {
    const { db, bff, engine, later } = tabletAt();
    const lost = await queueCreate(db, 'site', site(1));
    bff.fault = (req) => (req.key === lost.entryId ? 'drop-after' : null);
    await tried(db, engine);

    bff.fault = () => null;
    later(KEY_TRUSTED_FOR_MS - 60_000);
    engine.requestSync('manual');
    await engine.settled();

    expect(await db.outbox.get(lost.entryId)).toBeUndefined();
    expect(sends(bff, lost.entryId)).toBe(2);
    // The server replays the first answer: one site.
    expect(bff.all('site')).toHaveLength(1);
  });

  it('is sent, not parked, a day after a 401 or a 429 that proved nothing was made', async () => {
    const { db, bff, engine, later } = tabletAt();
    const refused = await queueCreate(db, 'site', site(1));
    bff.fault = () => ({ status: 401, code: 'reauth_required', message: 'Sign in again' });
    engine.requestSync('manual');
    await engine.settled();
    expect(engine.getStatus().paused).toBe(true);

    // Signed in again over a day later: the BFF is busy at first.
    later(KEY_TRUSTED_FOR_MS + 60_000);
    bff.fault = () => ({ status: 429, code: 'rate_limited', retryAfter: '1' });
    engine.resume();
    await tried(db, engine);
    expect(await db.outbox.get(refused.entryId)).toMatchObject({
      state: 'pending',
      lastError: { reason: 'rate_limited' },
    });

    later(KEY_TRUSTED_FOR_MS + 60_000);
    bff.fault = () => null;
    engine.requestSync('manual');
    await engine.settled();
    expect(await db.outbox.get(refused.entryId)).toBeUndefined();
    expect(bff.all('site')).toHaveLength(1);
  });

  it('is parked after a day when a version that kept no send times tried it', async () => {
    const { db, bff, engine, later } = tabletAt();
    const tried = await queueCreate(db, 'site', site(1));
    const diedSending = await queueCreate(db, 'site', site(2));
    const neverTried = await queueCreate(db, 'site', site(3));
    // As that version stored them: no sendingAt, no keySentAt.
    await db.outbox.update(tried.entryId, {
      frozen: true,
      attempts: 1,
      lastError: { status: null, reason: 'network', body: null, at: T0 + HOUR },
    });
    await db.outbox.update(diedSending.entryId, { state: 'sending', frozen: true });

    later(KEY_TRUSTED_FOR_MS + 2 * HOUR);
    engine.requestSync('manual');
    await engine.settled();

    expect(await db.outbox.get(tried.entryId)).toMatchObject(parkedUnknown);
    expect(await db.outbox.get(diedSending.entryId)).toMatchObject(parkedUnknown);
    expect(sends(bff, tried.entryId) + sends(bff, diedSending.entryId)).toBe(0);
    // Saved then, never tried: nothing can have reached the server, it goes.
    expect(await db.outbox.get(neverTried.entryId)).toBeUndefined();
    expect(bff.all('site')).toHaveLength(1);
  });

  it('is parked after a day when the app died while its request was under way', async () => {
    const { db, bff, engine, later } = tabletAt();
    const died = await queueCreate(db, 'site', site(1));
    const sentThen = await queueCreate(db, 'site', site(2));
    // What a crash during a send leaves: the entry marked, with the time its request left.
    for (const id of [died.entryId, sentThen.entryId])
      await db.outbox.update(id, { state: 'sending', frozen: true, sendingAt: T0 });
    // One came back to signal within the day, as the app started again.
    await db.outbox.update(sentThen.entryId, { sendingAt: T0 + 2 * HOUR });

    later(KEY_TRUSTED_FOR_MS + HOUR);
    engine.requestSync('manual');
    await engine.settled();

    expect(await db.outbox.get(died.entryId)).toMatchObject(parkedUnknown);
    expect(sends(bff, died.entryId)).toBe(0);
    expect(await db.outbox.get(sentThen.entryId)).toBeUndefined();
    expect(sends(bff, sentThen.entryId)).toBe(1);
  });
});
