import { afterEach, describe, expect, it } from 'vitest';
import type { TraplineDb } from '../../../../src/client/db/database';
import { findScanned } from '../../../../src/client/features/scan/find-scanned';
import { encodePoolLabel, encodeSiteTag } from '../../../../src/shared/labels/scan-code';
import { makeDb } from '../../sync/helpers/outbox-factory';

const AGENCY = 1;

function row(localId: string, serverId: number | null, extra: Record<string, unknown> = {}) {
  return {
    localId,
    serverId,
    syncState: serverId === null ? ('queued' as const) : ('synced' as const),
    data: {},
    server: null,
    baseUpdated: null,
    parentLocalId: null,
    updatedAt: 1,
    problem: null,
    ...extra,
  };
}

describe('where a scanned code leads, from the tablet alone', () => {
  let db: TraplineDb;
  afterEach(async () => {
    await db?.delete();
  });

  async function tablet() {
    db = makeDb();
    await db.sites.bulkAdd([
      { ...row('site-a', 37), code: '104233', name: 'Putah Creek N' },
      // An old revision of the same code, closed: never the one a collection starts at.
      {
        ...row('site-old', 12, { server: { deactive_date: '2025-01-01T00:00:00.000Z' } }),
        code: '104233',
        name: 'Putah Creek N (old)',
      },
      { ...row('site-b', null), code: '220001', name: 'Dry Creek Culvert' },
    ] as never);
    await db.pools.bulkAdd([
      row('pool-82', 4711, { server: { pool_num: 82 } }),
      row('pool-gone', 4712, { server: { pool_num: 83 }, deleted: true }),
    ] as never);
  }

  it('opens the test result entry of the pool on the label', async () => {
    await tablet();
    const label = encodePoolLabel({ agency: AGENCY, poolId: 4711, poolNumber: 82 });
    expect(await findScanned(db, label, AGENCY)).toEqual({
      kind: 'open',
      path: '/pools/pool-82/tests/new',
    });
  });

  it('says which pool is not on the tablet, and which was deleted, rather than open another', async () => {
    await tablet();
    const missing = encodePoolLabel({ agency: AGENCY, poolId: 9999, poolNumber: 90 });
    expect(await findScanned(db, missing, AGENCY)).toEqual({
      kind: 'pool-missing',
      poolNumber: 90,
    });
    const deleted = encodePoolLabel({ agency: AGENCY, poolId: 4712, poolNumber: 83 });
    expect(await findScanned(db, deleted, AGENCY)).toEqual({
      kind: 'pool-deleted',
      poolNumber: 83,
    });
  });

  it('never opens a record for another agency’s label, even when an id matches', async () => {
    await tablet();
    const theirs = encodePoolLabel({ agency: 2, poolId: 4711, poolNumber: 82 });
    expect(await findScanned(db, theirs, AGENCY)).toEqual({ kind: 'other-agency' });
    expect(await findScanned(db, encodeSiteTag({ agency: 2, siteId: 37 }), AGENCY)).toEqual({
      kind: 'other-agency',
    });
  });

  it('starts a collection at the site of a Trapline tag, a site code or a site name', async () => {
    await tablet();
    const atA = { kind: 'open', path: '/collections/new?site=site-a' };
    expect(await findScanned(db, encodeSiteTag({ agency: AGENCY, siteId: 37 }), AGENCY)).toEqual(
      atA,
    );
    // The code's open revision, not the closed one.
    expect(await findScanned(db, '104233', AGENCY)).toEqual(atA);
    expect(await findScanned(db, 'putah creek n', AGENCY)).toEqual(atA);
    // A site not yet sent has no server id, but its code is on the tablet.
    expect(await findScanned(db, '220001', AGENCY)).toEqual({
      kind: 'open',
      path: '/collections/new?site=site-b',
    });
  });

  it('says when a code leads nowhere', async () => {
    await tablet();
    expect(await findScanned(db, '999999', AGENCY)).toEqual({ kind: 'site-missing' });
    expect(await findScanned(db, encodeSiteTag({ agency: AGENCY, siteId: 5 }), AGENCY)).toEqual({
      kind: 'site-missing',
    });
    expect(await findScanned(db, 'https://example.org/x', AGENCY)).toEqual({
      kind: 'unknown',
      text: 'https://example.org/x',
    });
    expect(await findScanned(db, 'TRAPLINE:P:1:4711', AGENCY)).toEqual({
      kind: 'unknown',
      text: 'TRAPLINE:P:1:4711',
    });
  });
});
