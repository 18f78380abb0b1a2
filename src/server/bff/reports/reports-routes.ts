import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { HttpError } from '../../http/http-error';
import type { BffContext } from '../context';
import { requireSession, sessionOf } from '../require-session';
import type { StoredSession } from '../session-store';
import { reportLists, reportWorkerOf, type ReportLists } from './report-lists';
import { lookupNames, unknownNameFields, type KnownNames } from './report-names';
import {
  assertReadableQuery,
  parseReportQuery,
  REPORT_NAMES,
  said,
  type ReportName,
  type ReportQuery,
} from './report-query';
import { OverBudget, type ReportWorker } from './report-worker';

/**
 * Most rows one report may have (issue 36 N1). A district's busiest honest request, every date
 * of a season separated by trap and species, is a few thousand; 50,000 rows is ~6 MB of JSON and
 * some 25 MB of objects while it is sent, so a few at once cannot starve the BFF.
 */
export const REPORT_ROW_BUDGET = 50_000;

/** The parameters that multiply a report's rows, named in the 422 of one over its budget. */
const ROW_MULTIPLIERS = ['year', 'target_year', 'interval', 'separate_by', 'species', 'trap'];

/**
 * GET /api/reports/{abundance | abundance-anomaly | infection-rate | vector-index}: the signed-in
 * agency's surveillance reports (spec: shared/spec/surveillance-calculations.md), computed by the
 * shared module on the lists this BFF reads from the upstream. JSON `{rows, count}` (rows' keys in
 * column order) or, with format=csv, a CSV file with the same columns, each streamed as the
 * client takes it. Reading, computing and serialising all run on the report worker's thread
 * (report-worker.ts); this thread checks the request and passes the text on.
 */
export async function reportsRoutes(app: FastifyInstance, ctx: BffContext): Promise<void> {
  workers.set(app, reportWorkerOf(ctx));
  app.addHook('onClose', () => reportWorkerOf(ctx).close());
  for (const name of REPORT_NAMES) {
    app.get(
      `/api/reports/${name}`,
      { preHandler: requireSession(ctx), exposeHeadRoute: false },
      (req, reply) => answer(ctx, name, req, reply),
    );
  }
}

const workers = new WeakMap<FastifyInstance, ReportWorker>();

/** The report worker of a BFF built by buildBff (what a test restarts or limits). */
export function reportWorkerOfApp(app: FastifyInstance): ReportWorker | undefined {
  return workers.get(app);
}

async function answer(ctx: BffContext, name: ReportName, req: FastifyRequest, reply: FastifyReply) {
  // Parameters first: a bad request is answered without reading anything upstream.
  assertReadableQuery(req.url);
  const query = parseReportQuery(name, req.query);
  const session = sessionOf(req);
  const left = whenClientLeaves(reply);
  // The current season when no year is asked for (the shared module has no clock).
  const season = ctx.now().getUTCFullYear();
  let text: Readable;
  const backstop = liftIdleBackstop(req);
  try {
    const known = await namesOfLookups(ctx, session, query);
    const lists = await reportLists(ctx, session, left);
    try {
      assertKnownNames(query, known, lists.names);
      text = await compute(name, lists, query, season);
    } finally {
      lists.release();
    }
    if (left.aborted) text.destroy();
    else left.addEventListener('abort', () => text.destroy(), { once: true });
  } catch (err) {
    // Nobody to answer: the read this request waited for goes on only for others.
    if (left.aborted) return reply;
    throw err;
  } finally {
    backstop.restore();
  }
  reply.header('cache-control', 'private, no-store');
  if (query.format === 'csv') {
    const years =
      name === 'abundance-anomaly' ? [query.target_year ?? season] : (query.year ?? [season]);
    const span = [...new Set(years)].sort((a, b) => a - b).join('-');
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="trapline-${name}-${span}.csv"`)
      .send(text);
  }
  return reply.header('content-type', 'application/json; charset=utf-8').send(text);
}

/**
 * The connection's idle backstop (DEFAULT_SERVER_TIMEOUTS.idleMs: a socket with no traffic for
 * 120 s is destroyed) is lifted while this request's lists are read and its report computed, and
 * put back before the answer is sent. A district's history (100,000 collections: a couple of
 * hundred pages, one at a time) takes minutes to read on a loaded machine with nothing to send
 * meanwhile, and the backstop cut such reports off as a reset connection. The request is signed
 * in and whole by then; what bounds its wait is the read's own (each page's upstream timeout,
 * MAX_PAGES, the read stopped once every waiting client has gone), and an answer a client stops
 * taking is idle again under the backstop.
 */
function liftIdleBackstop(req: FastifyRequest): { restore(): void } {
  const socket = req.raw.socket;
  const idleMs = req.server.server.timeout;
  socket.setTimeout(0);
  return { restore: () => socket.setTimeout(idleMs) };
}

/** Aborts when the client goes before its answer was sent (the response closed unfinished). */
function whenClientLeaves(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('The client has gone'));
  });
  return controller.signal;
}

/** The lookups' names, when the request filters by species or trap (else none are needed). */
async function namesOfLookups(
  ctx: BffContext,
  session: StoredSession,
  query: ReportQuery,
): Promise<KnownNames | null> {
  if (!query.species && !query.trap) return null;
  try {
    return lookupNames(await ctx.lookups.get(session.info.agency, session.token));
  } catch (err) {
    if (err instanceof HttpError && err.code === 'reauth_required') {
      await ctx.sessions.expireToken(session, ctx.now());
    }
    throw err;
  }
}

/**
 * 422 naming `species` / `trap` when a name is neither in the lookups nor in the agency's own
 * records (issue 36 N1).
 */
function assertKnownNames(query: ReportQuery, lookups: KnownNames | null, inLists: KnownNames) {
  if (!lookups) return;
  if (unknownNameFields(query, [lookups]).length === 0) return;
  const fields = unknownNameFields(query, [lookups, inLists]);
  if (fields.length === 0) return;
  throw new HttpError(
    422,
    'validation_failed',
    `These report parameters are not valid: ${fields.map((f) => f.path).join(', ')}`,
    fields,
  );
}

/** The report's text, computed by the worker; 422 naming the row multipliers over the budget. */
async function compute(
  name: ReportName,
  lists: ReportLists,
  q: ReportQuery,
  season: number,
): Promise<Readable> {
  try {
    return await lists.report(name, q, season, REPORT_ROW_BUDGET);
  } catch (err) {
    if (!(err instanceof OverBudget)) throw err;
    const given = ROW_MULTIPLIERS.filter((p) => q[p as keyof ReportQuery] !== undefined);
    const rows = err.rows.toLocaleString('en-US');
    const budget = err.budget.toLocaleString('en-US');
    throw new HttpError(
      422,
      'validation_failed',
      `This report would have ${rows} rows; a report has at most ${budget}. Ask for fewer ` +
        'years, species or traps, a longer interval, or separate by fewer labels.',
      (given.length > 0 ? given : ['interval']).map((path) => ({
        path,
        message: `Together these make ${rows} rows, more than the ${budget} a report may have`,
        ...said('too_many_rows', { rows: err.rows, budget: err.budget }),
      })),
    );
  }
}
