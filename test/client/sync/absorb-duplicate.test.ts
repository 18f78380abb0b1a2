import { describe, expect, it, vi } from 'vitest';
import { serverToData } from '../../../src/client/db/field-values';
import { queueCreate, storeSynced, collection, pool, site } from './helpers/outbox-factory';
import type { Fault } from './helpers/fake-bff';
import { drain, setupEngine } from './helpers/setup-engine';

/**
 * A create whose answer was lost, then a pull: the tablet briefly holds the record twice (its own
 * row, still unacknowledged, and the pulled copy). Whatever the user saved against the pulled
 * copy in that window must follow it when the late acknowledgement folds the copy into the row.
 */
/**
 * The window both cases start from: a collection's create was applied and its answer lost, then a
 * pull stored the server's copy, and the user saved a pool under that copy. The drain is stopped;
 * `goOnline` lets every request through from then on.
 */
async function lostAnswerThenPulledCopy() {
  const { db, bff, engine } = setupEngine({ concurrency: 1 });
  const host = bff.seed('site', site(1));
  const siteLocal = await storeSynced(db, 'site', host, site(1));
  const made = await queueCreate(db, 'collection', collection(), siteLocal);

  // The first POST is applied and its answer lost; then the tablet is offline for a while.
  let phase: 'first' | 'offline' | 'online' = 'first';
  bff.fault = (req): Fault => {
    if (phase === 'online') return null;
    if (phase === 'first' && req.method === 'POST') {
      phase = 'offline';
      return 'drop-after';
    }
    return 'drop-before';
  };
  engine.requestSync('test');
  await vi.waitFor(() => expect(phase).toBe('offline'));
  engine.stop();
  await engine.settled();
  const [server] = bff.all('collection');

  // What a pull stores for the collection the server has and the tablet knows by no server id.
  const copy = await storeSynced(
    db,
    'collection',
    server,
    serverToData('collection', server),
    siteLocal,
  );
  const child = await queueCreate(db, 'pool', pool(), copy);
  const goOnline = async () => {
    phase = 'online';
    engine.start();
    await drain(engine);
  };
  return { db, bff, server, made, copy, child, goOnline };
}

describe('a pulled copy folded into its own record when the lost create is acknowledged', () => {
  it('sends the pool the user saved under the pulled copy, under the one collection', async () => {
    const { db, bff, server, made, child, goOnline } = await lostAnswerThenPulledCopy();

    await goOnline();

    expect(await db.outbox.toArray()).toEqual([]);
    expect((await db.collections.toArray()).map((c) => c.localId)).toEqual([made.localId]);
    const poolRow = await db.pools.get(child.localId);
    expect(poolRow).toMatchObject({ syncState: 'synced', parentLocalId: made.localId });
    expect(bff.get('pool', poolRow!.serverId!)?.collection).toBe(server.id);
  });

  it('keeps the pulled copy when the tablet no longer holds the record the create made', async () => {
    const { db, bff, server, made, copy, child, goOnline } = await lostAnswerThenPulledCopy();
    // The row the create made is gone (its entry is not): the copy is all the tablet has left.
    await db.collections.delete(made.localId);

    await goOnline();

    expect(await db.outbox.toArray()).toEqual([]);
    expect((await db.collections.toArray()).map((c) => c.localId)).toEqual([copy]);
    const poolRow = await db.pools.get(child.localId);
    expect(poolRow).toMatchObject({ syncState: 'synced', parentLocalId: copy });
    expect(bff.get('pool', poolRow!.serverId!)?.collection).toBe(server.id);
  });
});
