import { afterAll, beforeAll } from 'vitest';
import { recordsApi, type RecordsApi } from '../../../e2e/harness/records-api';
import { startStack, type Stack } from '../../../e2e/harness/stack';
import { browserSession } from './browser-session';
import { tabletsAt } from './tablets';

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
 * the BFF, and tablets (an engine on fake-indexeddb each, see tabletsAt) that the tests make and
 * that are deleted after each test. Registers its own hooks: call it once, at the top of a test
 * file, before any beforeAll that uses `world` (Vitest runs beforeAll hooks in the order given).
 */
export function tabletsOnStack(name: string) {
  const world = {} as StackWorld;

  beforeAll(async () => {
    world.stack = await startStack();
    world.office = await recordsApi(world.stack.recordsUrl, world.stack.password, 'demo-manager');
    const session = await browserSession(world.stack.appUrl, 'demo-tech', world.stack.password);
    world.headers = session.headers;
    world.agency = session.agencyId;
  }, 60_000);

  afterAll(async () => {
    await world.stack?.stop();
  });

  const tablet = tabletsAt(name, () => ({ baseUrl: world.stack.appUrl, headers: world.headers }));
  return { world, tablet };
}
