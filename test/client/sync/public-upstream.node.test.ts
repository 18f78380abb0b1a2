/**
 * The sync engine against the real BFF in front of an upstream that answers like the hosted public
 * service (test/server/bff/helpers/public-like-upstream.ts: lists without count, creates answered
 * 200, elevation as a string, lures as objects, query filters ignored, no pool endpoints).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollection } from '../../../src/client/db/create-collection';
import { createSite } from '../../../src/client/db/create-site';
import { startBff, type RunningBff } from '../../../src/server/bff/app';
import type { Database } from '../../../src/server/db/database';
import type { SiteCreate } from '../../../src/shared';
import {
  PUBLIC_PASSWORD,
  startPublicLikeUpstream,
  type PublicLikeUpstream,
} from '../../server/bff/helpers/public-like-upstream';
import { openTestDatabase } from '../../server/helpers/test-database';
import { browserSession } from './helpers/browser-session';
import { tabletsAt } from './helpers/tablets';

let db: Database;
let upstream: PublicLikeUpstream;
let bff: RunningBff;
let headers: Record<string, string>;
const onBff = tabletsAt('public', () => ({ baseUrl: bff.url, headers }));

beforeAll(async () => {
  db = await openTestDatabase();
  upstream = await startPublicLikeUpstream();
  bff = await startBff({ db, upstreamUrl: upstream.url, staticRoot: null, logger: false });
  ({ headers } = await browserSession(bff.url, 'field-tech', PUBLIC_PASSWORD));
}, 60_000);

afterAll(async () => {
  await bff?.close();
  await upstream?.close();
  await db?.close();
});

const tablet = () => onBff({ pull: { pageSize: 1 } });

describe('sync engine through the BFF to a public-like upstream', () => {
  it('pulls every site and collection page by page, elevations as numbers and lures as lure types', async () => {
    const { db: t, engine } = tablet();

    await engine.pull();

    const sites = await t.sites.toArray();
    expect(sites.map((s) => s.serverId).sort()).toEqual(
      upstream.sites.map((s) => s.id as number).sort(),
    );
    const levee = sites.find((s) => s.code === '100001')!;
    expect(sites.find((s) => s.code === '000000')?.data.elevation).toBe(12.5);
    expect(levee.data.elevation).toBe(7);
    const collections = await t.collections.toArray();
    expect(collections.map((c) => [c.serverId, c.data.lures])).toEqual(
      expect.arrayContaining([
        [10, [3, 4]],
        [11, [3]],
      ]),
    );
    expect(collections.every((c) => c.parentLocalId === levee.localId)).toBe(true);
    expect(engine.getStatus().lastPullAt).not.toBeNull();
  });

  it('creates a site and its collection once each, from creates answered 200', async () => {
    const { db: t, engine } = tablet();
    const code = '100777';
    const siteId = await createSite(t, {
      code,
      name: 'Public levee',
      coordinate_precision: 1,
      elevation: 3.5,
      shape: { type: 'Point', coordinates: [-121.49, 38.58] },
    } as SiteCreate);
    const collectionId = await createCollection(t, siteId, {
      collection_date: '2026-07-14T06:30:00-07:00',
      num_trap: 1,
      trap: 7,
      trap_nights: 1,
      lures: [3],
    });

    engine.requestSync('test');
    await engine.settled();

    expect(await t.outbox.toArray()).toEqual([]);
    const siteRow = (await t.sites.get(siteId))!;
    expect(siteRow).toMatchObject({ syncState: 'synced' });
    expect(upstream.sites.filter((s) => s.code === code)).toHaveLength(1);
    const stored = upstream.collections.filter((c) => c.site === siteRow.serverId);
    expect(stored).toHaveLength(1);
    expect(await t.collections.get(collectionId)).toMatchObject({
      syncState: 'synced',
      serverId: stored[0].id,
      data: { lures: [3] },
    });
  });
});
