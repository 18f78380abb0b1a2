import { describe, expect, it } from 'vitest';
import { createPools } from '../../../src/client/db/create-pools';
import { byCreation } from '../../../src/client/db/creation-order';
import type { TraplineDb } from '../../../src/client/db/database';
import { collection, site, storeSynced } from './helpers/outbox-factory';
import { drain, setupEngine } from './helpers/setup-engine';

/**
 * Equal pools are told apart by their place in the list: the order they were made in on this
 * tablet (creation-order.ts), which "an edit, a send or a pull never moves". Sent three at a time,
 * they may reach the server in another order, so the server's `add_date` may not say it; a pull
 * that stores the server's copy over a row made here must keep when the row was made.
 */
const NOW = Date.parse('2026-07-20T12:00:00.000Z');

const order = async (db: TraplineDb, collectionLocalId: string) =>
  (await db.pools.where('parentLocalId').equals(collectionLocalId).toArray())
    .sort(byCreation)
    .map((p) => p.localId);

describe('equal pools made on this tablet, after a pull', () => {
  it('stay in the order they were made, whatever order the server added them in', async () => {
    const { db, bff, engine } = setupEngine({ now: () => NOW, concurrency: 3 });
    const host = bff.seed('site', site(1));
    const siteLocal = await storeSynced(db, 'site', host, site(1));
    const c = bff.seed('collection', { ...collection('2026-07-14T00:00:00.000Z'), site: host.id });
    const collectionLocal = await storeSynced(
      db,
      'collection',
      c,
      { ...collection('2026-07-14T00:00:00.000Z') },
      siteLocal,
    );
    const equal = { species: 1, sex: 1, num_count: 25 };
    const made = await createPools(db, collectionLocal, [equal, equal, equal]);
    expect(await order(db, collectionLocal)).toEqual(made);
    await drain(engine);
    // Sent together, added by the server in the reverse order (the third answered first).
    const onServer = bff.all('pool').sort((a, b) => a.id - b.id);
    const stamps = onServer.map((p) => p.add_date).reverse();
    onServer.forEach((p, i) => (p.add_date = stamps[i]));
    expect(await order(db, collectionLocal)).toEqual(made);

    await engine.pull();

    expect(await db.pools.count()).toBe(3);
    expect(await order(db, collectionLocal)).toEqual(made);
  });
});
