import { describe, expect, it, vi } from 'vitest';
import type { SyncStatus } from '../../../src/client/sync';
import { createSite } from '../../../src/client/db/create-site';
import { countOutboxReads } from './helpers/count-outbox-reads';
import { collection, queueCreate, site } from './helpers/outbox-factory';
import { setupEngine } from './helpers/setup-engine';

const SITES = 300;

describe('sync status while a long queue drains', () => {
  it('shows the queue going down, a refused change and what it holds, without re-reading the outbox', async () => {
    const { db, bff, engine } = setupEngine({}, 15);
    const reads = countOutboxReads(db);
    // The first site is refused (a site code already used): its two collections wait on it.
    const refused = await queueCreate(db, 'site', site(0));
    await queueCreate(db, 'collection', collection(), refused.localId);
    await queueCreate(db, 'collection', collection('2026-07-15'), refused.localId);
    for (let i = 1; i <= SITES; i += 1) await queueCreate(db, 'site', site(i));
    bff.fault = (req) =>
      req.key === refused.entryId
        ? {
            status: 422,
            code: 'validation_failed',
            fields: [{ path: 'code', message: 'Site code already used' }],
          }
        : null;
    const shown: SyncStatus[] = [];
    engine.subscribe((s) => shown.push(s));
    const before = { ...reads };

    engine.start();
    await engine.settled();

    const whileDraining = shown.filter((s) => s.draining && s.pending + s.sending > 0);
    // The technician sees the count fall while it drains, and the refusal before it ends.
    const waiting = whileDraining.map((s) => s.pending + s.sending);
    expect(Math.min(...waiting)).toBeLessThan(SITES / 2);
    expect(Math.max(...waiting)).toBeGreaterThan(SITES / 2);
    expect(whileDraining.some((s) => s.parked === 1 && s.held === 2)).toBe(true);
    // Each count is a whole account of the queue: never more waiting than was queued.
    for (const s of whileDraining)
      expect(s.pending + s.sending + s.parked + s.held).toBeLessThanOrEqual(SITES + 3);
    // At the end, exactly what needs the user.
    expect(engine.getStatus()).toMatchObject({ pending: 0, sending: 0, parked: 1, held: 2 });
    // About 300 sends over seconds, counted every 100 ms: yet the outbox was read whole only a
    // handful of times, never once per send. Five on a quiet machine (the drain's start and end,
    // the final counts); on a loaded one (a clean-clone run, four test files at once) a slow
    // answer can let one more drain cycle start, with its own start and end: six were seen.
    expect(reads.full - before.full).toBeLessThanOrEqual(8);
  }, 60_000);

  it('counts a change saved mid-drain at once, a look-alike of one being sent, without counting the whole outbox', async () => {
    const { db, bff, engine } = setupEngine({}, 5);
    const reads = countOutboxReads(db);
    for (let i = 1; i <= SITES; i += 1) await queueCreate(db, 'site', site(i));
    // Requests wait at this gate while it is shut: the drain's view then stands still.
    let gate: Promise<void> = Promise.resolve();
    let open = () => undefined as void;
    vi.stubGlobal('fetch', async (...args: Parameters<typeof fetch>) => {
      await gate;
      return bff.fetch(...args);
    });
    const before = { ...reads };
    const shown: SyncStatus[] = [];
    engine.subscribe((s) => shown.push(s));
    engine.start();
    await vi.waitFor(() => expect(bff.requests.length).toBeGreaterThan(SITES / 3), {
      timeout: 30_000,
    });
    gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    // What passed the gate before it shut is answered and stored.
    await new Promise((r) => setTimeout(r, 500));
    const stored = (await db.outbox.toCollection().primaryKeys()).length;
    expect(stored).toBeGreaterThan(0);

    // The technician saves three sites meanwhile, alike to ones still queued.
    for (const n of [SITES, SITES - 1, SITES]) await queueCreate(db, 'site', site(n));
    await vi.waitFor(
      () => {
        const s = engine.getStatus();
        expect(s.draining).toBe(true);
        expect(s.pending + s.sending).toBe(stored + 3);
      },
      { timeout: 5_000 },
    );

    open();
    await engine.settled();
    expect(engine.getStatus()).toMatchObject({ pending: 0, sending: 0, parked: 0, held: 0 });
    expect(bff.appliedPosts.size).toBe(SITES + 3);
    // The counts followed the queue from the drain's own view and the newest entries alone.
    expect(reads.fullCounts - before.fullCounts).toBe(0);
    expect(shown.some((s) => s.draining)).toBe(true);
  }, 60_000);

  it('reads the ids of a queue saved just before the drain a few times, not with every count', async () => {
    // Saved a moment ago (the technician saves, then taps Sync now): every entry is within the
    // window in which a save may still be committing, so a count that looks for entries saved
    // since the drain read the outbox finds all of them again, unless it looks only at what was
    // saved since it last looked.
    const { db, engine } = setupEngine({}, 20);
    const reads = countOutboxReads(db);
    // Saved through the app's repository: stamped with the clock, as on a tablet.
    for (let i = 1; i <= SITES; i += 1) await createSite(db, site(i) as never);
    const before = { ...reads };
    const shown: SyncStatus[] = [];
    engine.subscribe((s) => shown.push(s));
    engine.start();
    await engine.settled();
    expect(engine.getStatus()).toMatchObject({ pending: 0, sending: 0 });
    // Counted often while it drained (every 100 ms), falling as it went.
    const counted = shown.filter((s) => s.draining && s.counted).map((s) => s.pending + s.sending);
    expect(new Set(counted).size).toBeGreaterThan(3);
    // Every entry read whole at the drain's start and end, and each id a few times more: not
    // once per count (300 ids x ~15 counts read 4,000-5,000 rows).
    expect(reads.rows - before.rows).toBeLessThanOrEqual(4 * SITES);
  }, 60_000);
});
