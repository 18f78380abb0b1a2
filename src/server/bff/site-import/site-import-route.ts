import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { lookupsDocument } from '#shared/schemas/lookups';
import {
  IMPORT_MEDIA_TYPES,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
  type ImportError,
  type ImportReport,
} from '#shared/schemas/site-import';
import { HttpError, toHttpError } from '../../http/http-error';
import type { BffContext } from '../context';
import { requireSession, sessionOf } from '../require-session';
import { reauthRequired } from '../session-errors';
import type { StoredSession } from '../session-store';
import { decodeUtf8 } from './decode-utf8';
import { existingSitesByCode } from './existing-sites';
import type { ReadRows } from './import-rows';
import { planImport, type ImportPlan } from './plan-import';
import { readCsvRows } from './read-csv-rows';
import { readGeoJsonRows } from './read-geojson-rows';
import { writeFailure, writePlan } from './write-plan';

export const SITE_IMPORT_PATH = '/api/import/sites';

/** An import must not start with less sign-in left than this: its writes would be cut off. */
const MIN_TOKEN_LEFT_MS = 2 * 60_000;

const MB = (MAX_IMPORT_BYTES / (1024 * 1024)).toLocaleString('en-US');
const tooLarge = () =>
  new HttpError(
    413,
    'payload_too_large',
    `The file is larger than ${MB} MB (${MAX_IMPORT_BYTES.toLocaleString('en-US')} bytes): split it into smaller files`,
  );
const tooManyRows = (rows: number) =>
  new HttpError(
    413,
    'payload_too_large',
    `The file has ${rows.toLocaleString('en-US')} sites; at most ${MAX_IMPORT_ROWS.toLocaleString('en-US')} can be imported at once: split it into smaller files`,
  );

const unsupportedType = (type: string | undefined) =>
  new HttpError(
    415,
    'unsupported_media_type',
    `Send the file as ${IMPORT_MEDIA_TYPES.csv} or ${IMPORT_MEDIA_TYPES.geojson} (got ${type ?? 'none'})`,
  );

const importQuery = z.strictObject({
  dry_run: z.enum(['true', 'false']).optional(),
});

/**
 * POST /api/import/sites (contract §12): a manager's CSV or GeoJSON file of sites, checked in
 * full, then written through the upstream's own site routes (all or nothing; see write-plan.ts
 * for what holds when the upstream fails midway). `?dry_run=true` checks and writes nothing.
 *
 * The answer is always the report {rows, created, updated, unchanged, errors}: 200 for a dry
 * run and a completed import; 422 (the report plus the contract's `error`) when bad rows stopped
 * the import before any write; the upstream's status when a write failed midway.
 */
export async function siteImportRoutes(app: FastifyInstance, ctx: BffContext): Promise<void> {
  await app.register(async (scope) => {
    // Only this route takes files: raw bytes, up to the import's own limit (not the 1 MiB of JSON).
    for (const type of Object.values(IMPORT_MEDIA_TYPES)) {
      scope.addContentTypeParser(
        type,
        { parseAs: 'buffer', bodyLimit: MAX_IMPORT_BYTES },
        (_req, body, done) => done(null, body),
      );
    }
    scope.addContentTypeParser('*', (req, _payload, done) =>
      done(unsupportedType(req.headers['content-type']), undefined),
    );
    scope.setErrorHandler((err, req, reply) => {
      const code = (err as { code?: string }).code;
      const e =
        code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? tooLarge()
          : toHttpError(err, 'Something went wrong in Trapline; no site was imported');
      if (e.status >= 500) req.log.error({ code: e.code, err }, 'site import failed');
      for (const [k, v] of Object.entries(e.headers ?? {})) reply.header(k, v);
      return reply.status(e.status).send(e.toBody());
    });

    const running = new Set<number>();
    scope.post(
      SITE_IMPORT_PATH,
      // Before the body is read: a technician's 10 MB upload is refused without reading it.
      { onRequest: [requireSession(ctx), requireManager] },
      async (req, reply) => {
        const query = importQuery.safeParse(req.query ?? {});
        if (!query.success) {
          throw new HttpError(422, 'validation_failed', 'The only parameter is dry_run=true', [
            { path: 'dry_run', message: 'Use dry_run=true or leave it out' },
          ]);
        }
        const dryRun = query.data.dry_run === 'true';
        const session = sessionOf(req);
        const agency = session.info.agency.id;
        if (!dryRun && running.has(agency)) {
          throw new HttpError(
            429,
            'rate_limited',
            'An import of sites for your agency is already running; wait for it to finish',
            undefined,
            { 'retry-after': '10' },
          );
        }
        keepSocketWhileWorking(req, reply);
        if (!dryRun) running.add(agency);
        try {
          return await runImport(ctx, req, reply, session, dryRun);
        } finally {
          if (!dryRun) running.delete(agency);
        }
      },
    );
  });
}

/**
 * The server drops a socket silent for its idle time (120 s: connectionTimeout), and nothing
 * passes on the browser's socket while the import writes 20,000 sites on a loaded machine. The
 * file is already in: until this answer is sent, the socket waits for it; then the server's
 * idle time applies again (keep-alive).
 */
function keepSocketWhileWorking(req: FastifyRequest, reply: FastifyReply): void {
  const socket = req.raw.socket;
  const idle = socket.timeout;
  socket.setTimeout(0);
  reply.raw.once('close', () => {
    if (!socket.destroyed) socket.setTimeout(idle ?? 0);
  });
}

async function requireManager(req: FastifyRequest): Promise<void> {
  const role = sessionOf(req).info.user.role;
  if (role !== 'manager') {
    throw new HttpError(403, 'forbidden', 'Only a manager can import sites');
  }
}

async function runImport(
  ctx: BffContext,
  req: FastifyRequest,
  reply: FastifyReply,
  session: StoredSession,
  dryRun: boolean,
) {
  const kind = mediaKind(req.headers['content-type']);
  // application/json reaches here through the BFF's JSON parser: not a file this route takes.
  if (!kind) throw unsupportedType(req.headers['content-type']);
  const body = req.body instanceof Buffer ? req.body : Buffer.alloc(0);
  // What the rows are checked against, read while the file is parsed.
  const precisions = ctx.lookups
    .get(session.info.agency, session.token)
    .then((doc) =>
      lookupsDocument.shape.coordinate_precision.parse(JSON.parse(doc.text).coordinate_precision),
    );
  const existing = existingSitesByCode(ctx, session);
  precisions.catch(() => undefined);
  existing.catch(() => undefined);

  const read = readFile(body, kind);
  if (read.count > MAX_IMPORT_ROWS) throw tooManyRows(read.count);
  const plan = planImport(read, await precisions, await existing);
  if (plan.errors.length || dryRun) {
    const report = reportOf(plan, dryRun);
    if (dryRun) return report;
    const n = new Set(plan.errors.map((e) => e.row)).size;
    return reply.status(422).send({
      ...report,
      error: {
        code: 'validation_failed',
        message: `Nothing was imported: ${n} row${n === 1 ? ' has' : 's have'} a problem. Fix ${n === 1 ? 'it' : 'them'} and import the file again`,
        // The contract's 422 names every failing field: here `rows.<row>.<column>`.
        fields: plan.errors.map((e) => ({
          path: `rows.${e.row}.${e.field}`,
          message: e.message,
          problem: e.problem ?? e.code,
          ...(e.values ? { values: e.values } : {}),
        })),
      },
    });
  }
  if (session.tokenExpiresAt.getTime() - ctx.now().getTime() < MIN_TOKEN_LEFT_MS) {
    throw reauthRequired();
  }
  const outcome = await writePlan(ctx, session, plan);
  const report: ImportReport = {
    rows: plan.rows,
    created: outcome.created,
    updated: outcome.updated,
    unchanged: plan.unchanged + (outcome.unchanged ?? 0),
    errors: [],
  };
  const failed = writeFailure(outcome);
  if (!failed) return report;
  return reply.status(outcome.failure!.status).send({
    ...report,
    errors: [failed],
    error: { code: outcome.failure!.code, message: failed.message },
  });
}

function readFile(body: Buffer, kind: 'csv' | 'geojson'): ReadRows {
  const decoded = decodeUtf8(body);
  if ('error' in decoded) return { rows: [], count: 0, errors: [decoded.error] };
  return kind === 'csv' ? readCsvRows(decoded.text) : readGeoJsonRows(decoded.text);
}

function mediaKind(header: string | undefined): 'csv' | 'geojson' | null {
  const type = (header ?? '').split(';', 1)[0].trim().toLowerCase();
  if (type === IMPORT_MEDIA_TYPES.csv) return 'csv';
  if (type === IMPORT_MEDIA_TYPES.geojson) return 'geojson';
  return null;
}

function reportOf(plan: ImportPlan, dryRun: boolean): ImportReport {
  const errors: ImportError[] = plan.errors;
  const ok = errors.length === 0;
  return {
    rows: plan.rows,
    // A dry run says what the import would do; an import stopped by errors did nothing.
    created: dryRun || ok ? plan.creates.length : 0,
    updated: dryRun || ok ? plan.updates.length : 0,
    unchanged: plan.unchanged,
    errors,
    ...(dryRun ? { dry_run: true } : {}),
  };
}
