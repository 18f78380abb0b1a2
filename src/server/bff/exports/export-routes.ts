import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { FieldError } from '#shared/schemas/error';
import { HttpError } from '../../http/http-error';
import type { BffContext } from '../context';
import { requireSession, sessionOf } from '../require-session';
import { openExport } from './export-body';
import { ExportSlots } from './export-slots';
import { EXPORT_TABLES, type ExportTable } from './export-tables';
import { EXPORT_PAGE_SIZE, upstreamCount } from './upstream-pages';

/** Trailer carrying the number of rows written; present only when the file was sent whole. */
const ROWS_TRAILER = 'x-export-rows';

/**
 * The smallest `page_size` taken: smaller pages make one upstream request per few rows (a page of
 * one row made 100k requests for 100k collections) for no gain; 100 is the contract's default page.
 */
export const MIN_EXPORT_PAGE_SIZE = 100;

/** Seconds a second export of a session is told to wait (it is refused while one runs). */
const EXPORT_BUSY_RETRY_S = 30;

const exportQuery = (minPageSize: number) =>
  z.strictObject({
    // Rows read per upstream page (100–1000, default 1000): smaller pages for slow upstreams.
    page_size: z.preprocess(
      (v) => (Array.isArray(v) && v.length === 1 ? v[0] : v),
      z.coerce.number().int().min(minPageSize).max(EXPORT_PAGE_SIZE).optional(),
    ),
  });

export type ExportOptions = {
  /** Smallest page_size accepted (MIN_EXPORT_PAGE_SIZE; tests of paging lower it). */
  minPageSize?: number;
};

/**
 * GET /api/export/{sites.csv, sites.geojson, collections.csv, pools.csv, pool-tests.csv}: the
 * signed-in agency's records as the upstream holds them, streamed page by page (upstream-pages.ts)
 * so a long history never sits in memory. The count of rows written is known only at the end: it
 * is sent as the trailer x-export-rows, and a failure after the first byte aborts the response.
 * GET /api/export/summary: the upstream's totals per list, before any download.
 */
export async function exportRoutes(
  app: FastifyInstance,
  ctx: BffContext,
  exportOptions: ExportOptions = {},
): Promise<void> {
  const options = { preHandler: requireSession(ctx), exposeHeadRoute: false };
  const query = exportQuery(exportOptions.minPageSize ?? MIN_EXPORT_PAGE_SIZE);
  const slots = new ExportSlots();
  for (const table of EXPORT_TABLES) {
    app.get(`/api/export/${table.file}`, options, async (req, reply) => {
      const { page_size } = strictQuery(query, req.query);
      const session = sessionOf(req);
      const release = slots.take(session.idHash);
      if (!release) throw exportBusy();
      // Released when the response ends however it ends (sent whole, aborted, client gone), or
      // at once when the export fails before its first byte.
      reply.raw.once('close', release);
      try {
        return await sendExport(ctx, table, page_size, req, reply);
      } catch (err) {
        release();
        throw err;
      }
    });
  }
  app.get('/api/export/summary', options, async (req, reply) => {
    strictQuery(z.strictObject({}), req.query);
    const session = sessionOf(req);
    const count = (file: string) =>
      Promise.all(
        EXPORT_TABLES.find((t) => t.file === file)!.lists.map((l) =>
          upstreamCount(ctx, session, l),
        ),
      ).then((counts) =>
        counts.some((c) => c === null) ? null : counts.reduce<number>((a, c) => a + c!, 0),
      );
    const [sites, collections, pools, poolTests] = await Promise.all(
      ['sites.csv', 'collections.csv', 'pools.csv', 'pool-tests.csv'].map(count),
    );
    reply.header('cache-control', 'private, no-store');
    return { sites, collections, pools, pool_tests: poolTests };
  });
}

function exportBusy(): HttpError {
  return new HttpError(
    429,
    'rate_limited',
    "A download of the agency's data is already running for you; wait for it to finish",
    undefined,
    { 'retry-after': String(EXPORT_BUSY_RETRY_S) },
  );
}

async function sendExport(
  ctx: BffContext,
  table: ExportTable,
  page_size: number | undefined,
  req: FastifyRequest,
  reply: FastifyReply,
) {
  const session = sessionOf(req);
  const open = await openExport(ctx, session, table, page_size ?? EXPORT_PAGE_SIZE);
  const [base, ext] = table.file.split('.');
  const day = ctx.now().toISOString().slice(0, 10);
  const filename = `trapline-${slug(session.info.agency.name)}-${base}-${day}.${ext}`;
  reply
    .header(
      'content-type',
      ext === 'csv' ? 'text/csv; charset=utf-8' : 'application/geo+json; charset=utf-8',
    )
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'private, no-store')
    .trailer(ROWS_TRAILER, async () => String(open.written()));
  return reply.send(Readable.from(open.body, { objectMode: false }));
}

/** The agency's name as a file-name part: lower-case letters, digits and dashes only. */
function slug(name: string): string {
  const s = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return s || 'agency';
}

/** The query against `schema`, or 422 validation_failed naming each unknown or bad parameter. */
function strictQuery<S extends z.ZodType>(schema: S, query: unknown): z.infer<S> {
  const parsed = schema.safeParse(query ?? {});
  if (parsed.success) return parsed.data;
  const fields: FieldError[] = [];
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) fields.push({ path: key, message: 'Unknown parameter' });
    } else {
      fields.push({ path: String(issue.path[0] ?? ''), message: issue.message });
    }
  }
  throw new HttpError(
    422,
    'validation_failed',
    `These export parameters are not valid: ${[...new Set(fields.map((f) => f.path))].join(', ')}`,
    fields,
  );
}
