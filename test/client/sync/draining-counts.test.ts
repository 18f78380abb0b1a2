import { describe, expect, it } from 'vitest';
import type { SyncStatus } from '../../../src/client/sync';
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
});
