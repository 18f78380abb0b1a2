/**
 * A tablet whose clock ran days ahead (set wrong by hand, a bad time zone) and was then put right.
 * A change that failed to send while the clock was ahead was given its next try "a second from
 * now" on the wrong clock: days away on the right one. Once the clock is right and the network is
 * there, it must go with the next sync, not days later.
 *
 * Real parts: the BFF and the records service on PGlite over HTTP, the engine on fake-indexeddb;
 * out of signal, tries go to a port nothing listens on (a real refused connection). (A create
 * whose try got no answer while the clock ran ahead is parked instead: key-window-clock.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { createSyncEngine } from '../../../src/client/sync';
import { updateSite } from '../../../src/client/db/update-site';
import type { SiteCreate } from '../../../src/shared';
import { queueCreate } from './helpers/outbox-factory';
import { siteBody, tarsalis, trapNight } from './helpers/record-bodies';
import { deleteRecord } from './helpers/records-service-writes';
import { tabletsOnStack } from './helpers/tablets-on-stack';

const DAYS = 86_400_000;
const { world, tablet } = tabletsOnStack('clock-set-back');
/** The data manager deletes a record in the office. */
const remove = (path: string) => deleteRecord(world.stack.recordsUrl, world.office, path);

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

describe('the tablet clock set back after a failed send', () => {
  it(
    'sends the waiting change at the next sync, not when the wrong clock comes round again',
    { timeout: 30_000 },
    async () => {
      // The clock runs two days ahead. The technician's site is on the server.
      const { db, engine: first, clock } = tablet();
      clock.offset = 2 * DAYS;
      const { localId } = await queueCreate(db, 'site', siteBody('916001', 'Clock Pond'));
      first.requestSync('manual');
      await first.settled();
      first.stop();
      const row = (await db.sites.get(localId))!;
      expect(row.serverId).not.toBeNull();

      // Out of signal (nothing listens at the address), the technician renames it; it fails to go.
      const offline = createSyncEngine(db, {
        baseUrl: 'http://127.0.0.1:9',
        autoPull: false,
        channelName: null,
        now: () => Date.now() + 2 * DAYS,
      });
      await updateSite(db, row.localId, { ...row.data, name: 'Clock Pond East' } as SiteCreate);
      const [entry] = await db.outbox.toArray();
      offline.requestSync('timer');
      expect(
        await until(async () => ((await db.outbox.get(entry.id))?.attempts ?? 0) > 0, 10_000),
      ).toBe(true);
      offline.stop();
      expect((await db.outbox.get(entry.id))?.lastError?.reason).toBe('network');

      // The clock is put right, the network is back: the app opens again and syncs by itself.
      const engine = createSyncEngine(db, {
        baseUrl: world.stack.appUrl,
        headers: world.headers,
        autoPull: false,
        channelName: null,
      });
      try {
        engine.start();
        const sent = await until(async () => (await db.outbox.count()) === 0, 10_000);
        const waiting = await db.outbox.get(entry.id);
        expect(
          sent,
          `still ${waiting?.state} ${JSON.stringify(waiting?.lastError)}, next try in ${((waiting?.nextAttemptAt ?? 0) - Date.now()) / 3_600_000} h`,
        ).toBe(true);
        const onServer = await world.office.get<{ name: string }>(`/v1/site/${row.serverId}`);
        expect(onServer.name).toBe('Clock Pond East');
      } finally {
        engine.stop();
      }
    },
  );

  it(
    'drops a site deleted in the office at the next pull, not when the wrong clock comes round again',
    { timeout: 30_000 },
    async () => {
      // The clock runs two days ahead while the tablet pulls the office's new site.
      const { db, engine, clock } = tablet();
      clock.offset = 2 * DAYS;
      const made = await world.office.post<{ id: number }>(
        '/v1/site',
        siteBody('916101', 'Clock Marsh', [-121.5, 38.6]),
      );
      expect(made.status).toBe(201);
      await engine.pull();
      expect(await db.sites.where('serverId').equals(made.body.id).count()).toBe(1);

      // The clock is put right; the office deletes the site; the tablet pulls again.
      clock.offset = 0;
      await remove(`/v1/site/${made.body.id}`);
      await engine.pull();
      expect(await db.sites.where('serverId').equals(made.body.id).count()).toBe(0);
    },
  );

  it(
    'drops a collection deleted in the office at the next pull, not when the wrong clock comes round again',
    { timeout: 30_000 },
    async () => {
      const { db, engine, clock } = tablet();
      clock.offset = 2 * DAYS;
      const site = await world.office.post<{ id: number }>(
        '/v1/site',
        siteBody('916201', 'Clock Creek', [-121.5, 38.6]),
      );
      const collection = await world.office.post<{ id: number }>('/v1/arthropod/collection', {
        site: site.body.id,
        ...trapNight(new Date(Date.now() - 2 * DAYS).toISOString().slice(0, 10)),
        arthropods: [tarsalis(40)],
      });
      expect(collection.status).toBe(201);
      await engine.pull();
      const held = () => db.collections.where('serverId').equals(collection.body.id).count();
      expect(await held()).toBe(1);

      clock.offset = 0;
      await remove(`/v1/arthropod/collection/${collection.body.id}`);
      await engine.pull();
      expect(await held()).toBe(0);
    },
  );
});
