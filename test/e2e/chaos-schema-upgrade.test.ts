import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ledger, printLedger, queuedEntries } from './harness/chaos-ledger';
import { visible } from './harness/field-actions';
import { userDbName } from './harness/local-db';
import { LOOK_ALIKE_ENTRIES, queueLookAlikes } from './harness/look-alikes';
import { outboxEmpties, TECH } from './harness/sync-checks';
import { signedInTabletOnFreshStack } from './harness/signed-in-tablet';

/**
 * What a new app version's Dexie does when it declares a higher version: opens the database at a
 * higher IndexedDB version and, in the upgrade, adds what it needs (here a new table). Run in a
 * page of the app's origin that is not the app. Resolves with whether the open had to wait for
 * another connection ('blocked') and the version it got.
 */
async function upgradeDatabase(page: Page, name: string) {
  return page.evaluate(
    (dbName) =>
      new Promise<{ blocked: boolean; version: number; outbox: number }>((resolve, reject) => {
        let blocked = false;
        const probe = indexedDB.open(dbName);
        probe.onerror = () => reject(probe.error);
        probe.onsuccess = () => {
          const next = probe.result.version + 10; // Dexie's version n is IndexedDB's n × 10
          probe.result.close();
          const open = indexedDB.open(dbName, next);
          open.onblocked = () => {
            blocked = true;
          };
          open.onupgradeneeded = () => {
            open.result.createObjectStore('newTableOfNextVersion', { keyPath: 'key' });
          };
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const db = open.result;
            const count = db.transaction('outbox', 'readonly').objectStore('outbox').count();
            count.onsuccess = () => {
              db.close();
              resolve({ blocked, version: db.version, outbox: count.result });
            };
            count.onerror = () => reject(count.error);
          };
        };
      }),
    name,
  );
}

// A tab of the app holds its database open with changes queued when a newer version of the app,
// in another tab, upgrades the database. The old tab lets go of the database at once (the
// upgrade is not blocked), stops using it, and asks the technician to reload; nothing queued is
// lost, and after the reload the queue drains exactly once.
describe('chaos (browser): schema upgrade with an old tab open', () => {
  const tablet = signedInTabletOnFreshStack();

  it('closes the old connection, asks for a reload, keeps the queue and drains it once', async () => {
    const old = tablet.app.page;
    const site = { code: '749401', name: 'Old Tab Oxbow' };
    // The new version's tab: a page of the origin that is not the app (the API's health check).
    const upgrader = await tablet.app.newTab('/api/health');
    await tablet.app.context.setOffline(true);
    await queueLookAlikes(old, site);
    const queued = await queuedEntries(old);
    expect(queued).toHaveLength(LOOK_ALIKE_ENTRIES);

    const upgraded = await upgradeDatabase(upgrader, userDbName(TECH.agencyId, TECH.username));
    expect(upgraded).toMatchObject({ blocked: false, outbox: LOOK_ALIKE_ENTRIES });

    // The old tab says what happened and what to do, and stops using the database.
    const notice = old.getByRole('alert').filter({ hasText: /updated in another tab/ });
    await visible(notice);

    // Online again, the old tab sends nothing with its stale code; the reload does.
    const before = tablet.stack.records.requests.length;
    await tablet.app.context.setOffline(false);
    await old.waitForTimeout(2_000);
    expect(tablet.stack.records.requests.slice(before).filter((r) => r.method === 'POST')).toEqual(
      [],
    );
    await notice.getByRole('button', { name: 'Reload' }).click();
    // Back on the same screen (the second collection), now on the upgraded database.
    await visible(old.getByRole('link', { name: 'Make pools' }), 30_000);
    expect(await notice.count()).toBe(0);
    // Online, the reloaded app drains on its own.
    await outboxEmpties(old, 90_000);

    const row = await ledger('schema upgrade, old tab open', old, tablet.stack, queued, site.code);
    printLedger(row);
    expect(row.details).toEqual([]);
    expect(row).toMatchObject({ entries: LOOK_ALIKE_ENTRIES, lost: 0, duplicated: 0, wrong: 0 });
    expect(row.stuck).toBe(0);
  }, 300_000);
});
