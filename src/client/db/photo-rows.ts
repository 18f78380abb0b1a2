import type { PhotoContentType, PhotoEntity } from '#shared/schemas/attachment';

/**
 * Where a photo's upload stands:
 * - `waiting`: to be sent once its record has a server id (the upload queue checks);
 * - `sending`: an upload is under way or was cut (`uploadUrl` + the server's offset resume it);
 * - `sent`: the BFF has every byte (`attachmentId` unknown: the list names it);
 * - `parked`: the BFF refused it (4xx): `problem` says why; it is not sent again by itself.
 */
export type PhotoUploadState = 'waiting' | 'sending' | 'sent' | 'parked';

/**
 * A photo of a record as the tablet holds it (Dexie table `photos`). `id` is the tablet's id of
 * the photo, sent as the upload's `photo_id`: the BFF stores one photo once, whatever the retries.
 * The full-size `blob` is what is sent; it is dropped (null) a week after it was sent, keeping
 * `thumb`. Both are JPEG re-encoded on the tablet, so no EXIF (location included) leaves it.
 */
export type PhotoRow = {
  id: string;
  entity: PhotoEntity;
  /** localId of the record (site, collection or pool) the photo belongs to. */
  recordLocalId: string;
  filename: string;
  contentType: PhotoContentType;
  /** When the photo was taken (the file's time), ISO 8601. */
  takenAt: string | null;
  width: number;
  height: number;
  bytes: number;
  blob: Blob | null;
  thumb: Blob;
  createdAt: number;
  state: PhotoUploadState;
  /** The tus upload's URL once the BFF created it: a cut upload resumes there. */
  uploadUrl: string | null;
  attempts: number;
  nextAttemptAt: number;
  problem: string | null;
  sentAt: number | null;
};

/** Indexes of the photos table: a record's photos, and what the upload queue looks at. */
export const PHOTO_INDEXES = 'id, recordLocalId, state';
