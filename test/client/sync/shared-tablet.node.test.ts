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
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { openUserDb, type TraplineDb } from '../../../src/client/db/database';
import { createSyncEngine } from '../../../src/client/sync';
import type { Database } from '../../../src/server/db/database';
import { startBff, type RunningBff } from '../../../src/server/bff/app';
import { buildRecords } from '../../../src/server/records/app';
import { PRECISION_ID } from '../../../src/server/records/seed/lookup-data';
import { openMigratedPglite } from '../../server/helpers/test-database';
import { queueCreate } from './helpers/outbox-factory';
import { browserSession } from './helpers/browser-session';
import { seedTestAccounts } from '../../helpers/seed-test-accounts';

const PASSWORD = 'shared-tablet-password';
let db: Database;
let records: FastifyInstance;
let bff: RunningBff;
let tablet: TraplineDb;

beforeAll(async () => {
  db = await openMigratedPglite();
  await seedTestAccounts(db, PASSWORD);
  records = await buildRecords({ db });
  const recordsUrl = await records.listen({ port: 0, host: '127.0.0.1' });
  bff = await startBff({ db, upstreamUrl: recordsUrl, staticRoot: null, logger: false });
}, 60_000);

afterAll(async () => {
  tablet?.close();
  await tablet?.delete();
  await bff?.close();
  await records?.close();
  await db?.close();
});

const sitesCoded = async (code: string) =>
  (await db.query<{ agency: number }>('select agency from site where code = $1', [code])).rows.map(
    (r) => r.agency,
  );

describe('a shared tablet, two tabs, two users', () => {
  it(
    "never sends or pulls one user's records under another user's session",
    { timeout: 30_000 },
    async () => {
      const techSession = await browserSession(bff.url, 'demo-tech', PASSWORD);
      // demo-tech's database, with a site saved offline.
      tablet = openUserDb({ agencyId: techSession.agencyId, username: 'demo-tech' });
      await queueCreate(tablet, 'site', {
        code: '915001',
        name: 'Shared tablet site',
        coordinate_precision: PRECISION_ID.gps,
        shape: { type: 'Point', coordinates: [-121.49, 38.58] },
      });

      // In the other tab: demo-tech signed out, neighbor-manager signed in. The cookie is theirs.
      const neighbor = await browserSession(bff.url, 'neighbor-manager', PASSWORD);
      expect(neighbor.agencyId).not.toBe(techSession.agencyId);

      // Tab 1, still demo-tech's app, drains demo-tech's outbox: the cookie is the neighbour's.
      const owner = { agencyId: techSession.agencyId, username: 'demo-tech' };
      const tab1 = createSyncEngine(tablet, {
        baseUrl: bff.url,
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
      const again = await browserSession(bff.url, 'demo-tech', PASSWORD);
      const resumed = createSyncEngine(tablet, {
        baseUrl: bff.url,
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
