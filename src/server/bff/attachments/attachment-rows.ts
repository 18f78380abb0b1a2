import type { Database, Queryable } from '../../db/database';
import type { Attachment, PhotoContentType, PhotoEntity } from '#shared/schemas/attachment';

/** One row of bff_attachment as the BFF reads it. */
export type AttachmentRow = {
  id: number;
  uploadId: string;
  photoId: string;
  agencyId: number;
  username: string;
  entity: PhotoEntity;
  record: number;
  filename: string;
  contentType: PhotoContentType;
  takenAt: Date | null;
  bytes: number;
  received: number;
  complete: boolean;
  createdAt: Date;
  addDate: Date | null;
};

type Raw = {
  id: number;
  upload_id: string;
  photo_id: string;
  agency_id: number;
  username: string;
  entity: PhotoEntity;
  record: number;
  filename: string;
  content_type: PhotoContentType;
  taken_at: Date | string | null;
  bytes: number;
  received: number;
  complete: boolean;
  created_at: Date | string;
  add_date: Date | string | null;
};

const COLUMNS =
  'id, upload_id, photo_id, agency_id, username, entity, record, filename, content_type, taken_at, bytes, received, complete, created_at, add_date';

const toDate = (v: Date | string | null) => (v === null ? null : new Date(v));

function fromRaw(r: Raw): AttachmentRow {
  return {
    id: Number(r.id),
    uploadId: r.upload_id,
    photoId: r.photo_id,
    agencyId: Number(r.agency_id),
    username: r.username,
    entity: r.entity,
    record: Number(r.record),
    filename: r.filename,
    contentType: r.content_type,
    takenAt: toDate(r.taken_at),
    bytes: Number(r.bytes),
    received: Number(r.received),
    complete: r.complete,
    createdAt: new Date(r.created_at),
    addDate: toDate(r.add_date),
  };
}

/** What GET /api/attachments lists of a complete row (contract §13). */
export function toAttachment(row: AttachmentRow): Attachment {
  return {
    id: row.id,
    entity: row.entity,
    record: row.record,
    filename: row.filename,
    content_type: row.contentType,
    bytes: row.bytes,
    taken_at: row.takenAt?.toISOString() ?? null,
    user: row.username,
    add_date: (row.addDate ?? row.createdAt).toISOString(),
    photo_id: row.photoId,
  };
}

export type NewAttachment = Omit<
  AttachmentRow,
  'id' | 'received' | 'complete' | 'createdAt' | 'addDate'
>;

/**
 * SQL of the BFF's photo tables. Every read names the agency: a photo of another agency is
 * never found (404, as a record of another agency).
 */
export class AttachmentRows {
  constructor(private readonly db: Database) {}

  /**
   * Inserts the upload, or returns the row this photo already has (the tablet sent its
   * creation again after losing the answer): the caller continues that upload.
   */
  async create(a: NewAttachment): Promise<AttachmentRow> {
    const { rows } = await this.db.query<Raw>(
      `insert into bff_attachment
         (upload_id, photo_id, agency_id, username, entity, record, filename, content_type, taken_at, bytes)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       on conflict (agency_id, photo_id) do nothing
       returning ${COLUMNS}`,
      [
        a.uploadId,
        a.photoId,
        a.agencyId,
        a.username,
        a.entity,
        a.record,
        a.filename,
        a.contentType,
        a.takenAt,
        a.bytes,
      ],
    );
    if (rows[0]) return fromRaw(rows[0]);
    const existing = await this.byPhoto(a.agencyId, a.photoId);
    if (!existing) throw new Error('attachment vanished between insert and read');
    return existing;
  }

  async byPhoto(agencyId: number, photoId: string): Promise<AttachmentRow | null> {
    const { rows } = await this.db.query<Raw>(
      `select ${COLUMNS} from bff_attachment where agency_id = $1 and photo_id = $2`,
      [agencyId, photoId],
    );
    return rows[0] ? fromRaw(rows[0]) : null;
  }

  async byUpload(uploadId: string): Promise<AttachmentRow | null> {
    const { rows } = await this.db.query<Raw>(
      `select ${COLUMNS} from bff_attachment where upload_id = $1`,
      [uploadId],
    );
    return rows[0] ? fromRaw(rows[0]) : null;
  }

  async byId(agencyId: number, id: number): Promise<AttachmentRow | null> {
    const { rows } = await this.db.query<Raw>(
      `select ${COLUMNS} from bff_attachment where agency_id = $1 and id = $2 and complete`,
      [agencyId, id],
    );
    return rows[0] ? fromRaw(rows[0]) : null;
  }

  async list(agencyId: number, entity: PhotoEntity, record: number): Promise<AttachmentRow[]> {
    const { rows } = await this.db.query<Raw>(
      `select ${COLUMNS} from bff_attachment
        where agency_id = $1 and entity = $2 and record = $3 and complete order by id`,
      [agencyId, entity, record],
    );
    return rows.map(fromRaw);
  }

  /** Bytes the agency's photos take, counting unfinished uploads at their declared size. */
  async agencyBytes(agencyId: number): Promise<number> {
    const { rows } = await this.db.query<{ total: string | number | null }>(
      'select coalesce(sum(bytes), 0) as total from bff_attachment where agency_id = $1',
      [agencyId],
    );
    return Number(rows[0]?.total ?? 0);
  }

  /** The first `length` stored bytes (the magic-byte check of a resumed upload). */
  async head(id: number, length: number): Promise<Buffer> {
    const { rows } = await this.db.query<{ data: Uint8Array }>(
      'select data from bff_attachment_chunk where attachment_id = $1 and start_at < $2 order by start_at',
      [id, length],
    );
    return Buffer.concat(rows.map((r) => Buffer.from(r.data))).subarray(0, length);
  }

  /**
   * Stores bytes at `start`, in one transaction with the row's new `received`, and only if
   * `received` is still `start`: two requests writing one upload cannot both land (the second
   * finds the offset moved and stores nothing). Returns the new offset, or null when it moved.
   */
  async append(id: number, start: number, data: Buffer): Promise<number | null> {
    return this.db.transaction(async (tx: Queryable) => {
      const { rows } = await tx.query<{ received: number }>(
        `update bff_attachment
            set received = received + $3,
                complete = (received + $3 = bytes),
                add_date = case when received + $3 = bytes then now() else null end
          where id = $1 and received = $2 and received + $3 <= bytes
          returning received`,
        [id, start, data.length],
      );
      if (!rows[0]) return null;
      await tx.query(
        'insert into bff_attachment_chunk (attachment_id, start_at, data) values ($1, $2, $3)',
        [id, start, data],
      );
      return Number(rows[0].received);
    });
  }

  /** The stored bytes in order. */
  async data(id: number): Promise<Buffer> {
    const { rows } = await this.db.query<{ data: Uint8Array }>(
      'select data from bff_attachment_chunk where attachment_id = $1 order by start_at',
      [id],
    );
    return Buffer.concat(rows.map((r) => Buffer.from(r.data)));
  }

  async remove(id: number): Promise<void> {
    await this.db.query('delete from bff_attachment where id = $1', [id]);
  }
}
