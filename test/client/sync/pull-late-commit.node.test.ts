/**
 * A change that becomes visible after a newer one. The records service stamps `updated` with
 * the time a write began, and the write commits later: on PostgreSQL a write waiting on a lock
 * (the site's numbering, a collection's pools) commits after writes that began after it, and two
 * records-service processes stamp from two clocks. A tablet that pulls in between has already
 * moved its mark past the late write's `updated`; asking only for `updated > mark` it would never
 * see that change, and the technician would work on the old counts for good.
 *
 * Real parts: the BFF and the records service on PGlite over HTTP, and a tablet's engine on
 * fake-indexeddb. PGlite runs one transaction at a time, so the late commit is made by stamping
 * the colleague's write with the records service's clock three seconds behind, as the write that
 * waited had stamped it. The collections look alike on purpose: same site, day, trap and counts.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TraplineDb } from '../../../src/client/db/database';
import type { SyncEngine } from '../../../src/client/sync';
import { browserSession } from './helpers/browser-session';
import { siteBody, tarsalis, trapNight } from './helpers/record-bodies';
import { recordsAndBff } from './helpers/records-and-bff';
import { tabletsAt } from './helpers/tablets';

const PASSWORD = 'late-commit-password';
/** The records service's clock: the tablet and the BFF keep the real one. */
let recordsSkewMs = 0;
const servers = recordsAndBff(PASSWORD, { records: () => new Date(Date.now() + recordsSkewMs) });
const newTablet = tabletsAt('late-commit', () => ({ baseUrl: servers.bffUrl }));
let tablet: TraplineDb;
/** A colleague's browser session at the BFF (another tablet, the office). */
let colleague: Record<string, string>;

beforeAll(async () => {
  colleague = (await browserSession(servers.bffUrl, 'demo-manager', PASSWORD)).headers;
});

afterEach(() => {
  recordsSkewMs = 0;
});

/** demo-tech's tablet, signed in: its database becomes `tablet`. */
async function startTablet(): Promise<SyncEngine> {
  const { headers } = await browserSession(servers.bffUrl, 'demo-tech', PASSWORD);
  const { db, engine } = newTablet({ headers });
  tablet = db;
  return engine;
}

/** The colleague's request through the BFF; answers its JSON record. */
async function colleagueSends(
  method: 'POST' | 'PUT',
  path: string,
  body: unknown,
): Promise<{ id: number; updated: string }> {
  const res = await fetch(`${servers.bffUrl}/api/v1${path}`, {
    method,
    headers: {
      ...colleague,
      'Content-Type': 'application/json',
      'X-CSRF': '1',
      ...(method === 'POST' ? { 'Idempotency-Key': crypto.randomUUID() } : {}),
    },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return (await res.json()) as { id: number; updated: string };
}

let codeSeq = 0;
/** Two days ago: inside the days of collections a tablet pulls. */
const DAY = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
const lookAlike = (site: number, count: number) => ({
  site,
  ...trapNight(DAY),
  arthropods: [tarsalis(count)],
});

/** A site and two look-alike collections at it, made by the colleague and pulled by the tablet. */
async function twoLookAlikesOnTheTablet(engine: SyncEngine) {
  const site = await colleagueSends(
    'POST',
    '/site',
    siteBody(870000 + (codeSeq += 1), `Late commit site ${codeSeq}`),
  );
  const a = await colleagueSends('POST', '/arthropod/collection', lookAlike(site.id, 40));
  const b = await colleagueSends('POST', '/arthropod/collection', lookAlike(site.id, 40));
  await engine.pull();
  expect(await onTablet(a.id, b.id)).toBe(2);
  return { a, b };
}

/** How many of these server records the tablet holds a row for. */
const onTablet = (...serverIds: number[]) =>
  tablet.collections.where('serverId').anyOf(serverIds).count();

const countOnTablet = async (serverId: number) => {
  const row = await tablet.collections.where('serverId').equals(serverId).first();
  const rows = (row?.data.arthropods ?? []) as { num_count: number }[];
  return rows[0]?.num_count;
};

const collectionsOnServer = async () =>
  Number(
    (
      await servers.db.query<{ n: string }>(
        'select count(*) as n from collection where agency = 1 and deactive_date is null',
      )
    ).rows[0].n,
  );

describe('a change committed after a newer one the tablet already pulled', () => {
  it('still reaches the tablet on its next pull', { timeout: 30_000 }, async () => {
    const engine = await startTablet();
    const { a, b } = await twoLookAlikesOnTheTablet(engine);

    // B's recount is committed and pulled: the tablet's mark moves to B's `updated`.
    const bEdited = await colleagueSends('PUT', `/arthropod/collection/${b.id}`, {
      arthropods: [tarsalis(41)],
    });
    await engine.pull();
    expect(await countOnTablet(b.id)).toBe(41);

    // A's recount began three seconds before B's and committed only now.
    recordsSkewMs = -3_000;
    const aEdited = await colleagueSends('PUT', `/arthropod/collection/${a.id}`, {
      arthropods: [tarsalis(12)],
    });
    expect(aEdited.updated < bEdited.updated).toBe(true);

    await engine.pull();
    expect(await countOnTablet(a.id)).toBe(12);
    expect(await countOnTablet(b.id)).toBe(41);
    expect(await onTablet(a.id, b.id)).toBe(2);
    expect(await tablet.collections.count()).toBe(await collectionsOnServer());
  });

  it('a site made while the tablet pulled appears on its map', { timeout: 30_000 }, async () => {
    const engine = await startTablet();
    await twoLookAlikesOnTheTablet(engine);
    const before = await tablet.sites.count();

    await colleagueSends(
      'POST',
      '/site',
      siteBody(870000 + (codeSeq += 1), `Late commit newer ${codeSeq}`, [-121.5, 38.6]),
    );
    await engine.pull();
    recordsSkewMs = -3_000;
    await colleagueSends(
      'POST',
      '/site',
      siteBody(870000 + (codeSeq += 1), `Late commit older ${codeSeq}`, [-121.51, 38.61]),
    );

    await engine.pull();
    const names = (await tablet.sites.toArray()).map((s) => s.name);
    expect(names).toContain(`Late commit older ${codeSeq}`);
    expect(await tablet.sites.count()).toBe(before + 2);
  });
});
