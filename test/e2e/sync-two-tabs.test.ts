import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import { launchApp, type AppBrowser } from './harness/browser';
import {
  createCollectionAtSite,
  createSiteByMap,
  makePools,
  signIn,
  visible,
} from './harness/field-actions';
import { recordsApi } from './harness/records-api';
import { startStack, type Stack } from './harness/stack';
import { keysPostedTo, outbox, outboxEmpties, PATHS, refId } from './harness/sync-checks';

// The app open in two tabs of one browser, both with the same queue: when the network comes
// back both tabs want to send, and exactly one does; every record is created once.
describe('sync: two tabs of the app', () => {
  let stack: Stack;
  let app: AppBrowser;
  let second: Page;

  beforeAll(async () => {
    await ensureAppBuilt();
    stack = await startStack();
    app = await launchApp(stack.appUrl);
    await signIn(app.page, { username: 'demo-tech', password: stack.password });
    await app.page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    second = await app.newTab('/');
    await visible(second.getByRole('heading', { name: /^Hello,/ }));
  });

  afterAll(async () => {
    await app?.dispose();
    await stack?.stop();
  });

  it('sends each queued change exactly once though both tabs try', async () => {
    const first = app.page;
    await app.context.setOffline(true);
    await createSiteByMap(first, { code: '744001', name: 'First Tab Pond' });
    await createCollectionAtSite(first, [
      { species: 'Cx tarsalis', sex: 'F-Mixed', count: 57 },
      { species: 'Cx pipiens', sex: 'F-Mixed', count: 12 },
    ]);
    await makePools(first);
    await createSiteByMap(second, { code: '744002', name: 'Second Tab Creek' });
    await createCollectionAtSite(second, [{ species: 'Cs inornata', sex: 'Male', count: 5 }]);

    // One queue on the device, seen by both tabs: 2 sites, 2 collections, 3 pools.
    const created = { [PATHS.site]: 2, [PATHS.collection]: 2, [PATHS.pool]: 3 };
    const queued = await outbox(second);
    expect(queued).toHaveLength(7);
    const before = stack.records.requests.length;

    // Both tabs hear 'online'; both are also asked to sync now, at the same moment.
    await app.context.setOffline(false);
    await Promise.all(
      [first, second].map((p) =>
        p
          .getByRole('region', { name: 'Sync status' })
          .getByRole('button', { name: 'Sync now' })
          .click(),
      ),
    );
    await outboxEmpties(first);
    await outboxEmpties(second);

    const api = await recordsApi(stack.recordsUrl, stack.password);
    const sites = [
      ...(await api.sites('query[code]=744001')).rows,
      ...(await api.sites('query[code]=744002')).rows,
    ];
    expect(sites.map((s) => s.name).sort()).toEqual(['First Tab Pond', 'Second Tab Creek']);
    const collections = (await api.collections()).rows.filter((c) =>
      sites.some((s) => refId(c.site) === Number(s.id)),
    );
    expect(collections).toHaveLength(2);
    const pools = (await api.pools()).rows.filter((p) =>
      collections.some((c) => refId(p.collection) === Number(c.id)),
    );
    expect(pools.map((p) => Number(p.num_count)).sort((a, b) => a - b)).toEqual([7, 12, 50]);

    // What reached the records service: one POST per record created, each key once.
    const posted = stack.records.requests
      .slice(before)
      .filter((r) => r.method === 'POST' && r.path.startsWith('/v1/'));
    const byPath: Record<string, number> = {};
    for (const r of posted) byPath[r.path] = (byPath[r.path] ?? 0) + 1;
    expect(byPath).toEqual(created);
    const keys = Object.keys(created).flatMap((path) => keysPostedTo(stack, path));
    expect(keys.every((k) => typeof k === 'string')).toBe(true);
    expect(new Set(keys).size).toBe(7);
    expect(new Set(keys)).toEqual(new Set(queued.map((e) => e.id)));
  });
});
