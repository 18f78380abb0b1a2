/**
 * A shared tablet, two tabs, two users. Each user has a database of their own, but the browser
 * has ONE session cookie for the origin: after demo-tech signs out in tab 2 and neighbor-manager
 * (another agency) signs in, tab 1 still runs demo-tech's app and engine, and its requests carry
 * neighbor-manager's cookie. Its engine names its owner on every request (OWNER_HEADER); the BFF
 * refuses to act on demo-tech's records under another user's session: nothing is sent into the
 * other agency, nothing of theirs is pulled into demo-tech's database, and the queue waits for
 * demo-tech to sign in again.
 *
 * Real parts: the BFF and the records service on PGlite over HTTP, the engine on fake-indexeddb.
 */
import 'fake-indexeddb/auto';
import { afterAll, describe, expect, it } from 'vitest';
import { openUserDb, type TraplineDb } from '../../../src/client/db/database';
import { createSyncEngine } from '../../../src/client/sync';
import { queueCreate } from './helpers/outbox-factory';
import { browserSession } from './helpers/browser-session';
import { siteBody } from './helpers/record-bodies';
import { recordsAndBff } from './helpers/records-and-bff';

const PASSWORD = 'shared-tablet-password';
const servers = recordsAndBff(PASSWORD);
let tablet: TraplineDb;

afterAll(async () => {
  tablet?.close();
  await tablet?.delete();
});

const sitesCoded = async (code: string) =>
  (
    await servers.db.query<{ agency: number }>('select agency from site where code = $1', [code])
  ).rows.map((r) => r.agency);

describe('a shared tablet, two tabs, two users', () => {
  it(
    "never sends or pulls one user's records under another user's session",
    { timeout: 30_000 },
    async () => {
      const techSession = await browserSession(servers.bffUrl, 'demo-tech', PASSWORD);
      // demo-tech's database, with a site saved offline.
      tablet = openUserDb({ agencyId: techSession.agencyId, username: 'demo-tech' });
      await queueCreate(tablet, 'site', siteBody('915001', 'Shared tablet site'));

      // In the other tab: demo-tech signed out, neighbor-manager signed in. The cookie is theirs.
      const neighbor = await browserSession(servers.bffUrl, 'neighbor-manager', PASSWORD);
      expect(neighbor.agencyId).not.toBe(techSession.agencyId);

      // Tab 1, still demo-tech's app, drains demo-tech's outbox: the cookie is the neighbour's.
      const owner = { agencyId: techSession.agencyId, username: 'demo-tech' };
      const tab1 = createSyncEngine(tablet, {
        baseUrl: servers.bffUrl,
        headers: neighbor.headers,
        owner,
        autoPull: false,
        channelName: null,
      });
      tab1.requestSync('manual');
      await tab1.settled();
      expect(tab1.getStatus().paused).toBe(true);
      expect(await sitesCoded('915001')).toEqual([]);
      expect(await tablet.outbox.count()).toBe(1);
      // Nor does a pull read the neighbour's records into demo-tech's database.
      await expect(tab1.pull()).rejects.toMatchObject({ reason: 'reauth' });
      expect(await tablet.sites.count()).toBe(1);
      tab1.stop();

      // demo-tech signs in again in tab 1: the queue goes, into demo-tech's agency.
      const again = await browserSession(servers.bffUrl, 'demo-tech', PASSWORD);
      const resumed = createSyncEngine(tablet, {
        baseUrl: servers.bffUrl,
        headers: again.headers,
        owner,
        autoPull: false,
        channelName: null,
      });
      resumed.requestSync('manual');
      await resumed.settled();
      resumed.stop();
      expect(await sitesCoded('915001')).toEqual([techSession.agencyId]);
      expect(await tablet.outbox.count()).toBe(0);
    },
  );
});
