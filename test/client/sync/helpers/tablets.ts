import 'fake-indexeddb/auto';
import { afterEach } from 'vitest';
import { TraplineDb } from '../../../../src/client/db/database';
import {
  createSyncEngine,
  type SyncEngine,
  type SyncEngineOptions,
} from '../../../../src/client/sync';

/**
 * Where a tablet's engine sends its requests: a BFF, and a browser session's headers there (or
 * none, for a file whose tablets each sign in: each is then given its own `headers` option).
 */
export type TabletServer = { baseUrl: string; headers?: Record<string, string> };

/** A tablet: its database, its engine, and the offset of its clock from the real one. */
export type Tablet = { db: TraplineDb; engine: SyncEngine; clock: { offset: number } };

/**
 * Makes tablets for the tests of a file: each a database on fake-indexeddb named after `name`,
 * and an engine over it with no automatic pull and no tab channel, on a clock the test moves
 * (`clock.offset`, 0 at first: the real time). `server` is read when a tablet is made, so it may
 * name servers that a beforeAll starts. Every tablet's engine is stopped and its database deleted
 * after each test: the function registers that afterEach, so call it once, at the top of a file.
 */
export function tabletsAt(name: string, server: () => TabletServer) {
  const made: Tablet[] = [];

  afterEach(async () => {
    for (const { engine, db } of made.splice(0)) {
      engine.stop();
      db.close();
      await db.delete();
    }
  });

  /** A new tablet; `options` are added to, or replace, the engine's defaults above. */
  return function tablet(options: Partial<SyncEngineOptions> = {}): Tablet {
    const db = new TraplineDb(`trapline-${name}-${crypto.randomUUID()}`);
    const clock = { offset: 0 };
    const engine = createSyncEngine(db, {
      ...server(),
      autoPull: false,
      channelName: null,
      now: () => Date.now() + clock.offset,
      ...options,
    });
    made.push({ db, engine, clock });
    return { db, engine, clock };
  };
}
