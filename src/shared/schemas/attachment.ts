import { z } from 'zod';
import { MAX_STORED_INT } from './common';

/**
 * Photos of records (contract §13): what the app sends as tus Upload-Metadata, what the BFF
 * lists, and the limits both sides apply. The tablet resizes before sending, so a real photo is
 * a few hundred KB; the cap is for what no resizing produced.
 */

/** The records a photo may belong to. */
export const PHOTO_ENTITIES = ['site', 'collection', 'pool'] as const;
export type PhotoEntity = (typeof PHOTO_ENTITIES)[number];

export const PHOTO_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type PhotoContentType = (typeof PHOTO_CONTENT_TYPES)[number];

/** Bytes one photo may have (10 MiB), after the app's own resizing. */
export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;

/** Long side in pixels the app resizes to. */
export const MAX_PHOTO_SIDE = 2048;

/** A record's server id as text (metadata, query string). */
function recordId() {
  return z
    .string()
    .regex(/^[1-9][0-9]{0,9}$/, 'A record id: a positive integer')
    .refine((v) => Number(v) <= MAX_STORED_INT, 'A record id: a positive integer');
}

/**
 * Upload-Metadata of POST /api/uploads. `record` is the record's server id: the app's photo
 * queue waits for its record's server id before sending (ARCHITECTURE "Photos"), so the BFF
 * can check with the upstream that the record exists and is the user's agency's. `photo_id` is
 * the tablet's id of the photo: a second upload of one photo (an answer lost on the way back)
 * continues the first instead of storing the photo twice.
 */
export const uploadMetadata = z.strictObject({
  entity: z.enum(PHOTO_ENTITIES),
  record: recordId(),
  filename: z.string().trim().min(1).max(200),
  content_type: z.enum(PHOTO_CONTENT_TYPES),
  taken_at: z.iso.datetime({ offset: true }).optional(),
  photo_id: z.uuid(),
});
export type UploadMetadata = z.infer<typeof uploadMetadata>;

/** One row of GET /api/attachments?entity=&record=. */
export const attachmentSchema = z.object({
  id: z.number().int().positive(),
  entity: z.enum(PHOTO_ENTITIES),
  record: z.number().int().positive(),
  filename: z.string(),
  content_type: z.enum(PHOTO_CONTENT_TYPES),
  bytes: z.number().int().nonnegative(),
  taken_at: z.string().nullable(),
  user: z.string(),
  add_date: z.string(),
  photo_id: z.string(),
});
export type Attachment = z.infer<typeof attachmentSchema>;

export const attachmentListQuery = z.strictObject({
  entity: z.enum(PHOTO_ENTITIES),
  record: recordId(),
});
