import type { Readable } from 'node:stream';
import { DataStore, ERRORS, Upload } from '@tus/utils';
import type { AttachmentRows } from './attachment-rows';
import { MAGIC_LENGTH, matchesContentType } from './magic-bytes';
import { HttpError } from '../../http/http-error';
import { tusError } from './tus-errors';

/** Bytes gathered before one write to the database: few rows per photo, little memory per request. */
const CHUNK_BYTES = 256 * 1024;

/**
 * A tus DataStore over the BFF's own database (bff_attachment + bff_attachment_chunk), so that
 * photos live where sessions and the journal do (PGlite, or one PostgreSQL shared by several BFF
 * processes). The upload row itself is created by the upload route (it needs the session's
 * agency and user); `create` here only confirms it exists.
 *
 * Invariants:
 * - `received` counts exactly the bytes in the chunk table; both move in one transaction.
 * - What arrived before a cut is kept (the tus offset a client resumes from): the bytes gathered
 *   so far are written when the request's body ends or fails.
 * - No byte of a file is stored before its first MAGIC_LENGTH bytes matched its declared type.
 */
export class DatabaseTusStore extends DataStore {
  constructor(private readonly rows: AttachmentRows) {
    super();
    this.extensions = ['creation', 'termination'];
  }

  override async create(upload: Upload): Promise<Upload> {
    const row = await this.rows.byUpload(upload.id);
    if (!row) throw ERRORS.FILE_NOT_FOUND;
    return upload;
  }

  override async getUpload(id: string): Promise<Upload> {
    const row = await this.rows.byUpload(id);
    if (!row) throw ERRORS.FILE_NOT_FOUND;
    return new Upload({
      id,
      size: row.bytes,
      offset: row.received,
      creation_date: row.createdAt.toISOString(),
    });
  }

  override async remove(id: string): Promise<void> {
    const row = await this.rows.byUpload(id);
    if (!row) throw ERRORS.FILE_NOT_FOUND;
    await this.rows.remove(row.id);
  }

  override async write(stream: Readable, id: string, offset: number): Promise<number> {
    const row = await this.rows.byUpload(id);
    if (!row) throw ERRORS.FILE_NOT_FOUND;
    // The head of the file decides whether anything is stored: bytes of it a cut request
    // already stored, plus what this request brings.
    let head = offset < MAGIC_LENGTH ? await this.rows.head(row.id, offset) : null;
    const checkHead = (final: boolean) => {
      if (head === null) return;
      if (head.length < Math.min(MAGIC_LENGTH, row.bytes) && !final) return;
      if (!matchesContentType(head, row.contentType)) {
        const refusal = lyingContentType(row.contentType);
        throw tusError(refusal.status, refusal.code, refusal.message);
      }
      head = null;
    };

    let received = offset;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = async () => {
      if (pendingBytes === 0) return;
      const data = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      const next = await this.rows.append(row.id, received, data);
      if (next === null) throw ERRORS.INVALID_OFFSET;
      received = next;
    };

    let failure: unknown = null;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        if (head !== null) {
          head = Buffer.concat([head, chunk.subarray(0, MAGIC_LENGTH - head.length)]);
          checkHead(false);
        }
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= CHUNK_BYTES) await flush();
      }
      checkHead(received + pendingBytes >= row.bytes);
    } catch (err) {
      failure = err;
    }
    // A refused head stores nothing, and neither does a cut before the head could be checked
    // (at most MAGIC_LENGTH - 1 bytes are sent again); any other cut keeps what arrived.
    if (head === null) await flush();
    if (failure) throw failure;
    return received;
  }
}

/** The answer to bytes that are not the image their content type says. */
export const lyingContentType = (type: string) =>
  new HttpError(
    415,
    'unsupported_media_type',
    `The file is not the ${type.replace('image/', '').toUpperCase()} image it says it is: send a photo (JPEG, PNG or WebP)`,
  );
