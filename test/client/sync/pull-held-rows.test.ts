import { describe, expect, it } from 'vitest';
import { COMMIT_WAIT_MS } from '../../../src/client/sync/pull-mark';
import type { FakeBff } from './helpers/fake-bff';
import { collection, queueCreate, queueUpdate, site } from './helpers/outbox-factory';
import { drain, setupEngine } from './helpers/setup-engine';

/**
 * A pulled row that meets the technician's own change of the record: the pull leaves the row as
 * the technician saved it (their edit wins locally), and its mark moves past the row. When the
 * change then leaves without a write on the server (discarded, or a conflict settled with the
 * server's values), the row must still come to show the server's record, not the version the
 * tablet had before the pull.
 */
const NOW = Date.parse('2026-07-20T12:00:00.000Z');
/** Long enough for a pull's mark to settle past every write before it (pull-mark.ts). */
const SETTLE = 2 * COMMIT_WAIT_MS;

async function pulledCollection() {
  const setup = setupEngine({ now: () => NOW, pull: { pageSize: 2 } });
  const { db, bff, engine } = setup;
  const host = bff.seed('site', site(1));
  const server = bff.seed('collection', {
    ...collection('2026-07-14'),
    site: host.id,
    comments: 'as found',
  });
  bff.passTime(SETTLE);
  await engine.pull();
  const row = (await db.collections.where('serverId').equals(server.id).first())!;
  return { ...setup, server, localId: row.localId };
}

const rowOf = async (setup: { db: ReturnType<typeof setupEngine>['db'] }, localId: string) =>
  (await setup.db.collections.get(localId))!;

function refusePuts(bff: FakeBff) {
  bff.fault = (req) =>
    req.method === 'PUT'
      ? { status: 422, code: 'validation_failed', message: 'num_trap: too many traps' }
      : null;
}

describe('a pulled row that meets the technician’s own change', () => {
  it('shows the office’s edit once the technician discards a refused edit of the record', async () => {
    const setup = await pulledCollection();
    const { db, bff, engine, server, localId } = setup;
    const entryId = await queueUpdate(db, 'collection', localId, { num_trap: 9 });
    refusePuts(bff);
    bff.edit('collection', server.id, { comments: 'Trap knocked over' });
    bff.passTime(SETTLE);
    await drain(engine);
    expect((await db.outbox.get(entryId))?.state).toBe('parked');

    await engine.pull();
    // The technician's value stays while the edit waits on them.
    expect((await rowOf(setup, localId)).data).toMatchObject({ num_trap: 9, comments: 'as found' });

    await engine.discard(entryId);
    bff.passTime(SETTLE);
    await engine.pull();

    const row = await rowOf(setup, localId);
    expect(row).toMatchObject({ syncState: 'synced' });
    expect(row.data).toMatchObject({ num_trap: 1, comments: 'Trap knocked over' });
    expect(row.server).toMatchObject({ comments: 'Trap knocked over' });
  });

  it('shows every field of the server’s record once a conflict is settled with its values', async () => {
    const setup = await pulledCollection();
    const { db, bff, engine, server, localId } = setup;
    const entryId = await queueUpdate(db, 'collection', localId, { comments: 'mine' });
    bff.edit('collection', server.id, { comments: 'theirs', num_trap: 3 });
    bff.passTime(SETTLE);
    await drain(engine);
    expect((await db.outbox.get(entryId))?.state).toBe('conflict');
    await engine.pull();

    await engine.resolveConflict(entryId, { comments: 'theirs' });
    await engine.settled();
    bff.passTime(SETTLE);
    await engine.pull();

    const row = await rowOf(setup, localId);
    expect(row.data).toMatchObject({ comments: 'theirs', num_trap: 3 });
    expect(await db.outbox.count()).toBe(0);
  });

  it('costs no request more when the edit is sent: the pull after it brings the record', async () => {
    const setup = await pulledCollection();
    const { db, bff, engine, server, localId } = setup;
    await queueUpdate(db, 'collection', localId, { num_trap: 2 });
    bff.edit('collection', server.id, { comments: 'Trap knocked over' });
    bff.passTime(SETTLE);
    // The edit not sent yet: the pull sees the office's edit and holds the row as it is.
    await engine.pull();
    expect((await rowOf(setup, localId)).data).toMatchObject({ comments: 'as found' });
    await drain(engine);
    bff.passTime(SETTLE);
    const before = bff.requests.length;
    await engine.pull();

    expect(bff.requests.length - before).toBe(4);
    const row = await rowOf(setup, localId);
    expect(row.data).toMatchObject({ num_trap: 2, comments: 'Trap knocked over' });
  });

  it('never merges the tablet’s unsent collection with a colleague’s look-alike', async () => {
    const setup = await pulledCollection();
    const { db, bff, engine, server } = setup;
    const siteLocal = (await db.sites.toArray())[0].localId;
    const host = (await db.sites.toArray())[0].serverId!;
    // Same site, day, trap and counts: the colleague's synced one, and the tablet's own.
    const colleague = bff.seed('collection', { ...collection('2026-07-14'), site: host });
    const mine = await queueCreate(db, 'collection', collection('2026-07-14'), siteLocal);
    bff.passTime(SETTLE);
    await engine.pull();
    expect(await db.collections.count()).toBe(3);
    expect(await db.collections.get(mine.localId)).toMatchObject({ serverId: null });

    await drain(engine);
    await engine.pull();

    const rows = await db.collections.toArray();
    expect(rows).toHaveLength(3);
    expect(new Set(rows.map((r) => r.serverId)).size).toBe(3);
    expect(rows.map((r) => r.serverId)).toEqual(expect.arrayContaining([server.id, colleague.id]));
    expect(bff.all('collection')).toHaveLength(3);
  });
});
