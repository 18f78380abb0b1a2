import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { TraplineDb } from '../../../../src/client/db/database';
import {
  createSyncEngine,
  type SyncEngine,
  type SyncEngineOptions,
} from '../../../../src/client/sync';
import { recordsApi, type RecordsApi } from '../../../e2e/harness/records-api';
import { startStack, type Stack } from '../../../e2e/harness/stack';
import { browserSession } from './browser-session';

export type StackWorld = {
  stack: Stack;
  /** The data manager, at the records service. */
  office: RecordsApi;
  /** demo-tech's browser session at the BFF. */
  headers: Record<string, string>;
  agency: number;
};

/**
 * The whole system on ephemeral ports (the e2e harness's stack: the records service on PGlite
 * and the BFF over real HTTP), the data manager at the records service, demo-tech signed in at
 * the BFF, and tablets (an engine on fake-indexeddb each) that the tests make and that are
 * deleted after each test. Registers its own hooks: call it once, at the top of a test file.
 */
export function tabletsOnStack(name: string) {
  const world = {} as StackWorld;
  const made: Array<{ engine: SyncEngine; db: TraplineDb }> = [];

  beforeAll(async () => {
    world.stack = await startStack();
    world.office = await recordsApi(world.stack.recordsUrl, world.stack.password, 'demo-manager');
    const session = await browserSession(world.stack.appUrl, 'demo-tech', world.stack.password);
    world.headers = session.headers;
    world.agency = session.agencyId;
  }, 60_000);

  afterEach(async () => {
    for (const { engine, db } of made.splice(0)) {
      engine.stop();
      db.close();
      await db.delete();
    }
  });

  afterAll(async () => {
    await world.stack?.stop();
  });

  /** A tablet with no automatic pull and no tab channel, on a clock the test moves. */
  function tablet(options: Partial<SyncEngineOptions> = {}) {
    const db = new TraplineDb(`trapline-${name}-${crypto.randomUUID()}`);
    const clock = { offset: 0 };
    const engine = createSyncEngine(db, {
      baseUrl: world.stack.appUrl,
      headers: world.headers,
      autoPull: false,
      channelName: null,
      now: () => Date.now() + clock.offset,
      ...options,
    });
    made.push({ engine, db });
    return { db, engine, clock };
  }

  return { world, tablet };
}
