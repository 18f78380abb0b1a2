import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { connection } from '../../../src/client/lib/connection';
import { collection, queueCreate, site } from '../sync/helpers/outbox-factory';
import { setupEngine } from '../sync/helpers/setup-engine';

// A test that ends while its engine is still sending must not leave the next test offline.
// Vitest runs a test's afterEach hooks before its onTestFinished ones, where setupEngine stops the
// engine: the shared setup once put the real fetch back and reset the connection in afterEach, so
// the engine's next send went to a network that is not there, after the reset, and the next test
// started offline. CI failed so (sync-status-bar's first test showed "Offline — 1 change saved").
describe('an engine still sending when its test ends', () => {
  it('a test that ends with a change on its way', async () => {
    const { db, bff, engine } = setupEngine();
    const parent = await queueCreate(db, 'site', site(1));
    const child = await queueCreate(db, 'collection', collection('2026-07-14'), parent.localId);
    // The site's answer is held until the test has ended; the collection waits on it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked!: () => void;
    const sent = new Promise<void>((resolve) => (asked = resolve));
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      asked();
      await held;
      return bff.fetch(input, init);
    });
    engine.start();
    await sent;
    // Registered after setupEngine's: runs before it stops the engine (last registered, first
    // run), once the test's afterEach hooks are done. The collection is then sent, or tried.
    onTestFinished(async () => {
      release();
      await vi.waitFor(async () => {
        const entry = await db.outbox.get(child.entryId);
        expect(entry === undefined || entry.attempts > 0).toBe(true);
      });
    });
  });

  it('the next test starts connected', () => {
    expect(connection.online).toBe(true);
  });
});
