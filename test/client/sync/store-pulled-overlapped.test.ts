import { describe, expect, it } from 'vitest';
import type { TraplineDb } from '../../../src/client/db/database';
import { storePulledRows, type WriteOrder } from '../../../src/client/sync/store-pulled-rows';
import { pulledSite, tabletDb } from '../features/helpers/records';
import { queueUpdate } from './helpers/outbox-factory';

/**
 * The pull writer worker writes a batch's chunks all at once ('overlapped'), the page's thread
 * one after another ('inTurn'): the same batch must leave the same tablet either way, and a
 * batch that fails part-way must leave nothing of itself, whichever chunk failed.
 */
const NOW = Date.parse('2026-07-20T12:00:00.000Z');
/** More than two of the store's write chunks (500 rows). */
const ROWS = 1_234;

/** Look-alike sites: the same name, place and time, ids in a run, codes alike but for a digit. */
const lookAlike = (id: number) =>
  pulledSite({ id, code: `1${String(id).padStart(5, '0')}`, name: 'Putah Creek N' });

/** A tablet holding site 700 pulled, then edited here (queued), and site 701 pulled. */
async function tabletWithEdit(): Promise<{ db: TraplineDb; edited: string }> {
  const db = await tabletDb();
  await storePulledRows(db, NOW, 'site', [lookAlike(700), lookAlike(701)]);
  const edited = (await db.sites.where('serverId').equals(700).first())!.localId;
  await queueUpdate(db, 'site', edited, { name: 'Putah Creek N (moved)' });
  return { db, edited };
}

/** The batch: look-alikes 1..ROWS, site 700 and 701 again as the office changed them, one sent twice. */
function batch() {
  const rows: Record<string, unknown>[] = [];
  for (let id = 1; id <= ROWS; id += 1) {
    if (id === 700 || id === 701) rows.push({ ...lookAlike(id), comments: 'office' });
    else rows.push(lookAlike(id));
  }
  // The same site twice in one batch (an upstream that lists it on two pages): the last one wins.
  rows.push({ ...lookAlike(42), comments: 'second copy' });
  return rows;
}

/** The tablet's sites, without the random localIds, by server id. */
async function sitesOf(db: TraplineDb) {
  const rows = await db.sites.orderBy('serverId').toArray();
  return rows.map(({ localId: _localId, ...row }) => row);
}

describe('storing a pulled batch with its chunks written overlapped', () => {
  it.each<WriteOrder>(['inTurn', 'overlapped'])(
    'leaves the same sites as chunks written in turn, the technician’s edit kept (%s)',
    async (order) => {
      const { db, edited } = await tabletWithEdit();
      const result = await storePulledRows(db, NOW, 'site', batch(), null, { writeOrder: order });

      expect(result.held).toEqual([700]);
      // 701 was here already; 42 is counted once.
      expect(result.stored).toBe(ROWS - 1);
      expect(result.added).toHaveLength(ROWS - 2);
      const sites = await sitesOf(db);
      expect(sites).toHaveLength(ROWS);
      expect(new Set(sites.map((s) => s.serverId)).size).toBe(ROWS);
      expect((await db.sites.get(edited))!.data).toMatchObject({ name: 'Putah Creek N (moved)' });
      expect(sites.find((s) => s.serverId === 701)!.data).toMatchObject({ comments: 'office' });
      expect(sites.find((s) => s.serverId === 42)!.data).toMatchObject({
        comments: 'second copy',
      });

      // The same tablet stored in turn: row for row the same.
      const reference = await tabletWithEdit();
      await storePulledRows(reference.db, NOW, 'site', batch(), null, { writeOrder: 'inTurn' });
      expect(sites).toEqual(await sitesOf(reference.db));
    },
  );

  it.each<WriteOrder>(['inTurn', 'overlapped'])(
    'leaves nothing of a batch whose last chunk cannot be stored (%s)',
    async (order) => {
      const { db } = await tabletWithEdit();
      const before = await sitesOf(db);
      const rows = batch();
      // A value IndexedDB cannot store, in the third chunk: its put throws, the batch aborts.
      rows[ROWS - 5] = { ...lookAlike(ROWS - 4), comments: () => 'not storable' };

      await expect(
        storePulledRows(db, NOW, 'site', rows, null, { writeOrder: order }),
      ).rejects.toThrow();
      expect(await sitesOf(db)).toEqual(before);
    },
  );
});
