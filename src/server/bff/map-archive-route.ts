import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../http/http-error';

/** Where the app reads the agency's map archive (GET /api/config names it as tileArchive). */
export const MAP_ARCHIVE_PATH = '/map/archive.pmtiles';

type ByteRange = { start: number; end: number };

/**
 * The one range of a `Range: bytes=…` header within a file of `size` bytes: `a-b` (b clamped to
 * the end, as RFC 9110 §14.1.2 says), `a-`, or the last `n` bytes `-n`. 'unsatisfiable' when it
 * starts past the end; null when the header is not one byte range (several ranges, other units,
 * garbage): the whole file is then sent, which RFC 9110 allows (a server may ignore Range).
 */
export function parseRange(header: string, size: number): ByteRange | 'unsatisfiable' | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

/** A strong ETag from size and modification time: a replaced archive gets a new one. */
function etagOf(size: number, mtimeMs: number): string {
  return `"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`;
}

function matches(list: string | undefined, etag: string): boolean {
  if (!list) return false;
  return list.split(',').some((t) => t.trim() === '*' || t.trim().replace(/^W\//, '') === etag);
}

/**
 * GET/HEAD /map/archive.pmtiles: the agency's PMTiles map archive (TILE_PMTILES) with HTTP range
 * requests, which is how the browser's pmtiles reader takes a header, a directory or one tile
 * out of it: Accept-Ranges, 206 with Content-Range, 416 (its Content-Range giving the size) for a
 * range past the end, a strong ETag (the reader checks that every range comes from the same file) and 304
 * for If-None-Match.
 *
 * No session is required: this is map data (like the public tile server's tiles), not agency
 * records, and the map must keep drawing while a technician's session has expired and the app
 * waits for them to sign in again. What the deployment serves is still only told through
 * /api/config, which is signed in.
 */
export async function mapArchiveRoute(app: FastifyInstance, file: string): Promise<void> {
  const serve = async (req: FastifyRequest, reply: FastifyReply) => {
    let info;
    try {
      info = await stat(file);
    } catch {
      throw new HttpError(404, 'not_found', 'The map archive is not on the server any more');
    }
    const size = info.size;
    const etag = etagOf(size, info.mtimeMs);
    reply.header('accept-ranges', 'bytes');
    reply.header('etag', etag);
    // Revalidated on every use: an operator may replace the archive, and its ETag then changes.
    reply.header('cache-control', 'no-cache');
    reply.header('content-type', 'application/vnd.pmtiles');
    if (matches(req.headers['if-none-match'], etag)) return reply.code(304).send();

    const rangeHeader = req.headers.range;
    // If-Range: the range is only for the copy the client has; another copy gets the whole file.
    const ifRange = req.headers['if-range'];
    const range =
      rangeHeader && (!ifRange || ifRange === etag) ? parseRange(rangeHeader, size) : null;
    if (range === 'unsatisfiable') {
      throw new HttpError(
        416,
        'bad_request',
        `The range ${rangeHeader} is outside the map archive (${size} bytes)`,
        undefined,
        { 'content-range': `bytes */${size}` },
      );
    }
    const { start, end } = range ?? { start: 0, end: size - 1 };
    const length = Math.max(0, end - start + 1);
    reply.header('content-length', length);
    if (range) {
      reply.code(206);
      reply.header('content-range', `bytes ${start}-${end}/${size}`);
    }
    if (req.method === 'HEAD' || length === 0) return reply.send();
    return reply.send(createReadStream(file, { start, end }));
  };
  app.get(MAP_ARCHIVE_PATH, serve);
}
