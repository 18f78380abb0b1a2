import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import type { AppBrowser } from './harness/browser';
import { ledger, printLedger, queuedEntries } from './harness/chaos-ledger';
import { launchSignedIn, syncNow, visible } from './harness/field-actions';
import { LOOK_ALIKE_ENTRIES, queueLookAlikes } from './harness/look-alikes';
import { startStack, type Stack } from './harness/stack';
import { keysPostedTo, outboxEmpties, PATHS } from './harness/sync-checks';

// Two tabs of the app share one queue of look-alike records; when the network comes back both
// are asked to sync at the same moment. Only one drains at a time: each create reaches the
// records service once, and each local record holds the server record its own create made.
describe('chaos (browser): two tabs drain look-alikes at once', () => {
  let stack: Stack;
  let app: AppBrowser;
  let second: Page;

  beforeAll(async () => {
    await ensureAppBuilt();
    // A slow link keeps both tabs' drains overlapping.
    stack = await startStack({ faultProxy: true });
    app = await launchSignedIn(stack);
    second = await app.newTab('/');
    await visible(second.getByRole('heading', { name: /^Hello,/ }));
  });

  afterAll(async () => {
    await app?.dispose();
    await stack?.stop();
  });

  it('sends every look-alike once, each mapped to its own server record', async () => {
    const site = { code: '749201', name: 'Two Tabs Twin Marsh' };
    await app.context.setOffline(true);
    await queueLookAlikes(app.page, site);
    const queued = await queuedEntries(second);
    expect(queued).toHaveLength(LOOK_ALIKE_ENTRIES);

    stack.proxy!.setLatency(150);
    await app.context.setOffline(false);
    await Promise.all([app.page, second].map((p) => syncNow(p)));
    await outboxEmpties(app.page, 90_000);
    await outboxEmpties(second, 30_000);

    for (const tab of [app.page, second]) {
      const row = await ledger('two tabs draining at once', tab, stack, queued, site.code);
      printLedger(row);
      expect(row.details).toEqual([]);
      expect(row).toMatchObject({ entries: LOOK_ALIKE_ENTRIES, lost: 0, duplicated: 0, wrong: 0 });
      expect(row.stuck).toBe(0);
    }
    // Each key reached the records service once: one tab sent each create, never both.
    const keys = Object.values(PATHS).flatMap((p) => keysPostedTo(stack, p));
    expect(keys.filter((k) => queued.some((e) => e.id === k)).sort()).toEqual(
      queued.map((e) => e.id).sort(),
    );
  }, 300_000);
});
