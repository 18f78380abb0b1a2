import { Readable } from 'node:stream';
import { Metadata } from '@tus/utils';
import { Server as TusServer } from '@tus/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fieldsFromZod } from '#shared/schemas/error';
import { MAX_PHOTO_BYTES, uploadMetadata, type UploadMetadata } from '#shared/schemas/attachment';
import { HttpError } from '../../http/http-error';
import type { BffContext } from '../context';
import { requireSession, sessionOf } from '../require-session';
import type { StoredSession } from '../session-store';
import { AttachmentRows, type AttachmentRow } from './attachment-rows';
import { DatabaseTusStore, lyingContentType } from './database-tus-store';
import { peekHead } from './peek-head';
import { MAGIC_LENGTH, matchesContentType } from './magic-bytes';
import { requireRecordOfAgency } from './record-check';
import { contractBody } from './tus-errors';

export const UPLOADS_PATH = '/api/uploads';
const TUS_BODY_TYPE = 'application/offset+octet-stream';
const MB = (bytes: number) => `${Math.round(bytes / (1024 * 1024)).toLocaleString('en-US')} MB`;

/** A photo being created: what POST /api/uploads checked, for the tus creation hook. */
type Creation = { session: StoredSession; meta: UploadMetadata; bytes: number };

/**
 * tus 1.0 at /api/uploads (contract §13): POST creates an upload of one photo of a record,
 * HEAD tells its offset, PATCH appends at that offset, DELETE ends an unfinished one. The tus
 * protocol is @tus/server's, over DatabaseTusStore; this route adds what tus leaves to the
 * server: the session (cookie + X-CSRF like every /api route, checked by the BFF's hooks
 * before this runs), the metadata's rules, the record's agency, the agency's quota, and that an
 * upload is continued only by the user who started it. Every refusal carries the contract's
 * error body; no CORS header is sent (the app is same-origin).
 */
export async function uploadRoutes(
  app: FastifyInstance,
  ctx: BffContext,
  options: { quotaBytes: number },
): Promise<void> {
  const rows = new AttachmentRows(ctx.db);
  const creations = new WeakMap<Request, Creation>();
  const tus = new TusServer({
    path: UPLOADS_PATH,
    datastore: new DatabaseTusStore(rows),
    maxSize: MAX_PHOTO_BYTES,
    relativeLocation: true,
    allowedOrigins: () => false,
    respectForwardedHeaders: false,
    // The tablet's second creation of one photo (its first answer was lost) gets the same
    // upload back, so the photo is stored once.
    namingFunction: async (req) => {
      const creation = creations.get(req);
      if (!creation) throw new Error('upload created outside the upload route');
      const existing = await rows.byPhoto(creation.session.info.agency.id, creation.meta.photo_id);
      return existing?.uploadId ?? crypto.randomUUID();
    },
    onUploadCreate: async (req, upload) => {
      const creation = creations.get(req);
      if (!creation) throw new Error('upload created outside the upload route');
      const { session, meta, bytes } = creation;
      await rows.create({
        uploadId: upload.id,
        photoId: meta.photo_id,
        agencyId: session.info.agency.id,
        username: session.info.user.username,
        entity: meta.entity,
        record: Number(meta.record),
        filename: meta.filename,
        contentType: meta.content_type,
        takenAt: meta.taken_at ? new Date(meta.taken_at) : null,
        bytes,
      });
      return {};
    },
  });

  await app.register(async (scope) => {
    // Only tus bodies here, streamed to the store (never buffered whole).
    scope.addContentTypeParser(TUS_BODY_TYPE, (_req, payload, done) => done(null, payload));
    scope.addContentTypeParser('*', (req, _payload, done) =>
      done(
        new HttpError(
          415,
          'unsupported_media_type',
          `Send photo bytes as ${TUS_BODY_TYPE} (got ${req.headers['content-type'] ?? 'none'})`,
        ),
        undefined,
      ),
    );
    const guard = { onRequest: [requireSession(ctx)] };

    scope.post(UPLOADS_PATH, guard, async (req, reply) => {
      const session = sessionOf(req);
      const { meta, bytes } = readCreation(req);
      const used = await rows.agencyBytes(session.info.agency.id);
      const again = await rows.byPhoto(session.info.agency.id, meta.photo_id);
      if (!again) {
        if (used + bytes > options.quotaBytes) throw quotaExceeded(used, options.quotaBytes);
        await requireRecordOfAgency(ctx, session, meta.entity, Number(meta.record));
      }
      const web = toWebRequest(req);
      creations.set(web, { session, meta, bytes });
      return sendTus(reply, await tus.handleWeb(web));
    });

    for (const method of ['HEAD', 'PATCH', 'DELETE'] as const) {
      scope.route({
        method,
        url: `${UPLOADS_PATH}/:id`,
        ...guard,
        handler: async (req, reply) => {
          const { id } = req.params as { id: string };
          const row = await rows.byUpload(id);
          const session = sessionOf(req);
          // Someone else's upload, even of one's own agency, is not there for this user.
          if (
            !row ||
            row.agencyId !== session.info.agency.id ||
            row.username !== session.info.user.username
          ) {
            throw new HttpError(404, 'not_found', 'This upload is not known; start it again');
          }
          // Finished photos are deleted through /api/attachments, with its rules.
          if (method === 'DELETE' && row.complete) {
            throw new HttpError(
              403,
              'forbidden',
              'This photo is stored: delete it as an attachment',
            );
          }
          if (method === 'PATCH') await refuseLyingHead(req, row, rows);
          return sendTus(reply, await tus.handleWeb(toWebRequest(req)));
        },
      });
    }
  });
}

/** Upload-Length and Upload-Metadata of a creation, checked before tus sees them. */
function readCreation(req: FastifyRequest): { meta: UploadMetadata; bytes: number } {
  const lengthHeader = req.headers['upload-length'];
  if (typeof lengthHeader !== 'string' || !/^[0-9]{1,15}$/.test(lengthHeader)) {
    throw new HttpError(
      400,
      'bad_request',
      'Upload-Length is required: the photo size in bytes (the size cannot be sent later)',
    );
  }
  const bytes = Number(lengthHeader);
  if (bytes > MAX_PHOTO_BYTES) {
    throw new HttpError(
      413,
      'payload_too_large',
      `The photo is ${MB(bytes)}; at most ${MB(MAX_PHOTO_BYTES)} is stored (the app resizes photos to well under that)`,
    );
  }
  let raw: Record<string, string | null>;
  try {
    raw = Metadata.parse(String(req.headers['upload-metadata'] ?? ''));
  } catch {
    throw new HttpError(400, 'bad_request', 'Upload-Metadata is not valid tus metadata');
  }
  const input = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, v ?? '']));
  const parsed = uploadMetadata.safeParse(input);
  if (!parsed.success) {
    const fields = fieldsFromZod(parsed.error, input);
    const unsupported = fields.find((f) => f.path === 'content_type' && input.content_type);
    if (unsupported) {
      throw new HttpError(
        415,
        'unsupported_media_type',
        `Only photos are kept (JPEG, PNG or WebP); got ${String(input.content_type).slice(0, 100)}`,
      );
    }
    throw new HttpError(
      422,
      'validation_failed',
      `The photo's details are not valid: ${fields.map((f) => f.path).join(', ')}`,
      fields,
    );
  }
  if (bytes < MAGIC_LENGTH) {
    throw new HttpError(422, 'validation_failed', 'The file is too small to be a photo', [
      { path: 'Upload-Length', message: `At least ${MAGIC_LENGTH} bytes` },
    ]);
  }
  return { meta: parsed.data, bytes };
}

/**
 * The first bytes of a PATCH that starts the file (or continues one cut in its first bytes),
 * checked against the declared content type before tus or the store see them: a PDF or a
 * script sent as image/jpeg is refused with 415 and nothing of it is stored. The store checks
 * again (its own invariant), but could only answer tus's generic "aborted".
 */
async function refuseLyingHead(
  req: FastifyRequest,
  row: AttachmentRow,
  rows: AttachmentRows,
): Promise<void> {
  const offset = Number(req.headers['upload-offset']);
  if (!(req.body instanceof Readable) || !(offset >= 0 && offset < MAGIC_LENGTH)) return;
  if (offset !== row.received) return; // tus answers 409 without reading the body
  const stored = await rows.head(row.id, offset);
  const { head, body } = await peekHead(req.body, MAGIC_LENGTH - offset);
  req.body = body;
  const whole = Buffer.concat([stored, head]);
  // A cut inside the head: tus keeps none of it, and the next request checks it whole.
  if (whole.length < Math.min(MAGIC_LENGTH, row.bytes)) return;
  if (!matchesContentType(whole, row.contentType)) throw lyingContentType(row.contentType);
}

const quotaExceeded = (used: number, quota: number) =>
  new HttpError(
    413,
    'quota_exceeded',
    `Your agency's photo storage is full (${MB(used)} of ${MB(quota)}): ask a manager to delete old photos or raise TRAPLINE_PHOTO_QUOTA_MB`,
  );

/** The Fastify request as the web Request @tus/server reads; a PATCH body streams through. */
function toWebRequest(req: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'host' || name === 'connection') continue;
    if (name === 'transfer-encoding') continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const body = req.body instanceof Readable ? (Readable.toWeb(req.body) as ReadableStream) : null;
  // A fixed origin: Locations are relative, and the Host header is the browser's to say.
  return new Request(`http://trapline.invalid${req.raw.url ?? UPLOADS_PATH}`, {
    method: req.method,
    headers,
    body: req.method === 'PATCH' ? body : null,
    // @ts-expect-error Node's fetch needs duplex for a streamed body; lib.dom lacks it
    duplex: 'half',
  });
}

/** tus's answer through Fastify (so the BFF's security and cache headers apply), CORS removed. */
async function sendTus(reply: FastifyReply, res: Response): Promise<FastifyReply> {
  reply.status(res.status);
  res.headers.forEach((value, name) => {
    if (name.startsWith('access-control-')) return;
    if (name === 'content-length' || name === 'content-type') return;
    reply.header(name, value);
  });
  const text = await res.text();
  if (res.status >= 400) {
    reply.header('content-type', 'application/json; charset=utf-8');
    return reply.send(contractBody(res.status, text));
  }
  return reply.send();
}
