import { describe, expect, it } from 'vitest';
import { queueCreate, pool } from './helpers/outbox-factory';
import { drain } from './helpers/setup-engine';
import { createWithLostAnswer, storePulledCopy } from './helpers/lost-answer';

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
  const { db, bff, engine, siteLocal, made, server, letThrough } = await createWithLostAnswer(1);
  const copy = await storePulledCopy(db, server, siteLocal);
  const child = await queueCreate(db, 'pool', pool(), copy);
  const goOnline = async () => {
    letThrough();
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
