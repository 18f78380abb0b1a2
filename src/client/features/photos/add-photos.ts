import type { PhotoEntity } from '#shared/schemas/attachment';
import type { TraplineDb } from '../../db/database';
import type { PhotoRow } from '../../db/photo-rows';
import { kickPhotoUploads } from '../../sync/photo-uploads';
import { photoFits } from './photo-space';
import { resizePhoto } from './resize-photo';

/** Why a photo was not added: the tablet is full, or the file is not an image it can read. */
export type AddPhotoProblem =
  | { kind: 'no-space'; filename: string; freeBytes: number | null }
  | { kind: 'unreadable'; filename: string };

/**
 * Adds photos to a record: each resized on the tablet (resize-photo), checked against the free
 * storage (a file's own size bounds the resized one), then stored with its thumbnail in one
 * write and queued for upload. The photo is on the tablet, and shown, before any network.
 */
export async function addPhotos(
  db: TraplineDb,
  record: { entity: PhotoEntity; localId: string },
  files: readonly File[],
): Promise<AddPhotoProblem[]> {
  const problems: AddPhotoProblem[] = [];
  for (const file of files) {
    const space = await photoFits(file.size);
    if (!space.fits) {
      problems.push({ kind: 'no-space', filename: file.name, freeBytes: space.freeBytes });
      continue;
    }
    let resized;
    try {
      resized = await resizePhoto(file);
    } catch {
      problems.push({ kind: 'unreadable', filename: file.name });
      continue;
    }
    const now = Date.now();
    const row: PhotoRow = {
      id: crypto.randomUUID(),
      entity: record.entity,
      recordLocalId: record.localId,
      filename: jpegName(file.name),
      contentType: 'image/jpeg',
      takenAt: file.lastModified ? new Date(file.lastModified).toISOString() : null,
      width: resized.width,
      height: resized.height,
      bytes: resized.blob.size,
      blob: resized.blob,
      thumb: resized.thumb,
      createdAt: now,
      state: 'waiting',
      uploadUrl: null,
      attempts: 0,
      nextAttemptAt: 0,
      problem: null,
      sentAt: null,
    };
    await db.photos.add(row);
  }
  kickPhotoUploads();
  return problems;
}

/** The file's name with the extension of what is stored (JPEG), e.g. IMG_0042.HEIC → IMG_0042.jpg. */
function jpegName(name: string): string {
  const base = name.replace(/\.[^./\\]{1,5}$/, '').trim() || 'photo';
  return `${base.slice(0, 190)}.jpg`;
}
