import type { PhotoUploader } from './photo-uploads';
import type { SyncStatus } from './sync-status';

/**
 * Whether a change of the records' sync status may let the photo queue send a photo it could not
 * send before, so that it is worth a look. A look reads the photo table four or five times
 * (IndexedDB requests and cursor steps): taken on every status change, which a drain makes
 * several times per entry (progress, what is in flight, counts), it cost the drain more requests
 * per entry than the entry's own acknowledgement did, and with no photo on the tablet.
 * A queued photo waits only for its record's server id, which a drain stores (`sent` moves, or the
 * drain ends), or for the connection to come back. Nothing waiting, nothing to release: a photo
 * added in this page looks itself (kickPhotoUploads), and the queue also looks by itself every
 * 15 s (another tab's photo, a backoff that ended).
 */
function mayReleasePhotos(
  before: SyncStatus | null,
  after: SyncStatus,
  photosWaiting: number,
): boolean {
  if (photosWaiting === 0) return false;
  if (!before) return true;
  return (
    (after.online && !before.online) ||
    after.draining !== before.draining ||
    after.progress?.sent !== before.progress?.sent
  );
}

/**
 * Kicks `photos` whenever the records' sync status changes in a way that may release a waiting
 * photo (mayReleasePhotos). Returns the unsubscribe.
 */
export function kickPhotosOnRecordSync(
  engine: { subscribe(fn: (status: SyncStatus) => void): () => void; getStatus(): SyncStatus },
  photos: Pick<PhotoUploader, 'kick' | 'getStatus'>,
): () => void {
  let last: SyncStatus | null = engine.getStatus();
  return engine.subscribe((status) => {
    if (mayReleasePhotos(last, status, photos.getStatus().pending)) photos.kick();
    last = status;
  });
}
