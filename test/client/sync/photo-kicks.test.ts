import { describe, expect, it, vi } from 'vitest';
import { kickPhotosOnRecordSync } from '../../../src/client/sync/photo-kicks';
import {
  createPhotoUploader,
  type PhotoUploadStatus,
} from '../../../src/client/sync/photo-uploads';
import { countIdbRequests } from './helpers/count-idb-requests';
import { collection, pool, queueCreate, site } from './helpers/outbox-factory';
import { setupEngine } from './helpers/setup-engine';

/**
 * The photo queue looks at its table when the records' sync may have released a photo (issue 40,
 * item 2: kicked on every status change, it read the photo table four or five times per entry a
 * drain sent, with no photo on the tablet).
 */
async function queueChains(db: Parameters<typeof queueCreate>[0], chains: number) {
  for (let i = 0; i < chains; i += 1) {
    const s = await queueCreate(db, 'site', site(i));
    const c = await queueCreate(db, 'collection', collection(), s.localId);
    await queueCreate(db, 'pool', pool(), c.localId);
  }
}

const photoRequests = (byKind: Map<string, number>) =>
  [...byKind].filter(([kind]) => kind.startsWith('photos.')).reduce((n, [, k]) => n + k, 0);

describe('the photo queue beside a drain', () => {
  it('does not read its table while records drain and no photo waits', async () => {
    const { db, engine } = setupEngine();
    await queueChains(db, 5);
    const photos = createPhotoUploader(db, {
      endpoint: 'http://127.0.0.1:9/api/uploads',
      intervalMs: 60_000,
    });
    photos.start();
    await photos.settled();
    const idb = countIdbRequests();
    const unsubscribe = kickPhotosOnRecordSync(engine, photos);

    engine.start();
    await engine.settled();
    await photos.settled();
    unsubscribe();
    photos.stop();

    expect(await db.outbox.count()).toBe(0);
    expect(photoRequests(idb.byKind)).toBe(0);
  });

  it('looks again as records get their server ids while a photo waits', async () => {
    const { db, engine } = setupEngine();
    await queueChains(db, 2);
    const waiting: PhotoUploadStatus = {
      pending: 1,
      waitingForRecord: 1,
      current: null,
      parked: [],
    };
    const photos = { kick: vi.fn(), getStatus: () => waiting };
    const unsubscribe = kickPhotosOnRecordSync(engine, photos);

    engine.start();
    await engine.settled();
    unsubscribe();

    expect(await db.outbox.count()).toBe(0);
    // At least once after the last record was acknowledged (the drain's end), and as it went.
    expect(photos.kick.mock.calls.length).toBeGreaterThanOrEqual(2);
  });
});
