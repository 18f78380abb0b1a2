import { describe, expect, it, vi } from 'vitest';
import { updateRecord } from '../../../src/client/db/update-record';
import { site, storeSynced } from './helpers/outbox-factory';
import { drain, setupEngine } from './helpers/setup-engine';

/**
 * Two saves of one record in the same millisecond, from two tabs (each page's entry clock is its
 * own, db/entry-time.ts). The outbox orders a record's entries by createdAt, ties by id (random),
 * while the later save also names the earlier in its dependsOn. Sorted the other way by a tie,
 * each waited for the other, and the record's changes, and everything behind them, never left
 * the tablet.
 */
describe('two saves of one record with the same createdAt, the later one sorting first', () => {
  it(
    'go out in the order they were saved, and the queue empties',
    { timeout: 10_000 },
    async () => {
      const { db, bff, engine } = setupEngine();
      const server = bff.seed('site', site(1));
      const localId = await storeSynced(db, 'site', server, site(1));
      const ids = ['ffffffff-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];
      const uuid = vi.spyOn(crypto, 'randomUUID').mockImplementation(() => {
        const id = ids.shift();
        if (!id) throw new Error('more ids than the two saves');
        return id as ReturnType<Crypto['randomUUID']>;
      });
      const first = (await db.sites.get(localId))!.data;
      await updateRecord(db, 'site', localId, { ...first, name: 'Putah Creek North' });
      const second = (await db.sites.get(localId))!.data;
      await updateRecord(db, 'site', localId, { ...second, comments: 'Gate code 4411' });
      uuid.mockRestore();
      // The other tab's clock gave its entry the same millisecond.
      const [a, b] = await db.outbox.where('localId').equals(localId).sortBy('id');
      expect(a.dependsOn).toContain(b.id);
      await db.outbox.update(a.id, { createdAt: b.createdAt });

      await drain(engine);

      expect(await db.outbox.count()).toBe(0);
      expect(bff.get('site', server.id)).toMatchObject({
        name: 'Putah Creek North',
        comments: 'Gate code 4411',
      });
    },
  );
});
