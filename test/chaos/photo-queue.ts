import { createHash } from 'node:crypto';
import { ENTITY_TABLE } from '../../src/client/db/database';
import type { PhotoRow } from '../../src/client/db/photo-rows';
import { createPhotoUploader, type PhotoUploader } from '../../src/client/sync/photo-uploads';
import type { PhotoEntity } from '../../src/shared/schemas/attachment';
import { UPLOADS } from './chaos-proxy';
import { photoBytes, type PhotoLook, type PlannedPhoto } from './photo-plan';
import type { Rng } from './prng';
import type { Tablet } from './tablet';

/** A photo the user took, as the verdict checks it on the BFF. */
export type TakenPhoto = {
  id: string;
  key: string;
  entity: PhotoEntity;
  recordLocalId: string;
  bytes: number;
  sha256: string;
  look: PhotoLook;
  /** Taken before its record had a server id: the upload had to wait for the record's create. */
  waited: boolean;
};

export type PhotoQueue = {
  /** Takes a planned photo of the record `recordLocalId`, as the app's photo screen stores it. */
  take(photo: PlannedPhoto, recordLocalId: string): Promise<void>;
  readonly taken: TakenPhoto[];
  /** Nothing left for the queue: every photo whose record has a server id is sent or parked. */
  idle(): Promise<boolean>;
  /** Looks at the queue now (after the user signed in again, when the faults stopped). */
  kick(): void;
  stop(): Promise<void>;
};

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * The app's own photo upload queue (src/client/sync/photo-uploads.ts, tus-js-client under Node)
 * on the tablet's database, sending through the edge proxy as signed-in-app.tsx wires it: kicked
 * whenever the records' engine reports (a record may have got its server id) and by its own
 * timer; a 401 asks the user to sign in again (`onReauth`), who then kicks it. Backoff is short
 * (as the tablet's) so a seed settles in seconds.
 */
export function startPhotoQueue(
  tablet: Tablet,
  edgeUrl: string,
  rng: Rng,
  onReauth: () => void,
): PhotoQueue {
  const uploader: PhotoUploader = createPhotoUploader(tablet.db, {
    endpoint: `${edgeUrl}${UPLOADS}`,
    headers: () => ({ ...tablet.headers(), 'X-CSRF': '1' }),
    readSource: async (blob) => Buffer.from(await blob.arrayBuffer()),
    intervalMs: 250,
    backoff: { baseMs: 50, capMs: 1000 },
    random: () => rng.next(),
    onReauth,
  });
  uploader.start();
  const unsubscribe = tablet.engine.subscribe(() => uploader.kick());
  const taken: TakenPhoto[] = [];
  return {
    taken,
    async take(photo, recordLocalId) {
      const bytes = photoBytes(photo.size, photo.content);
      const record = (await tablet.db.table(ENTITY_TABLE[photo.entity]).get(recordLocalId)) as
        { serverId: number | null } | undefined;
      const now = Date.now();
      const row: PhotoRow = {
        id: crypto.randomUUID(),
        entity: photo.entity,
        recordLocalId,
        filename: `chaos-${photo.key}-${taken.length}.jpg`,
        contentType: 'image/jpeg',
        takenAt: new Date(now).toISOString(),
        width: 2048,
        height: 1536,
        bytes: bytes.length,
        blob: new Blob([bytes as BlobPart], { type: 'image/jpeg' }),
        thumb: new Blob([bytes.slice(0, 64) as BlobPart], { type: 'image/jpeg' }),
        createdAt: now,
        state: 'waiting',
        uploadUrl: null,
        attempts: 0,
        nextAttemptAt: 0,
        problem: null,
        sentAt: null,
      };
      await tablet.db.photos.add(row);
      taken.push({
        id: row.id,
        key: photo.key,
        entity: photo.entity,
        recordLocalId,
        bytes: bytes.length,
        sha256: sha256(bytes),
        look: photo.look,
        waited: record?.serverId == null,
      });
      uploader.kick(); // as add-photos.ts does
    },
    async idle() {
      const open = await tablet.db.photos.where('state').anyOf('waiting', 'sending').toArray();
      for (const p of open) {
        const record = (await tablet.db.table(ENTITY_TABLE[p.entity]).get(p.recordLocalId)) as
          { serverId: number | null } | undefined;
        if (record?.serverId != null) return false;
      }
      return true;
    },
    kick: () => uploader.kick(),
    async stop() {
      unsubscribe();
      uploader.stop();
      await uploader.settled();
    },
  };
}
