import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  abundanceAnomalyReport,
  abundanceReport,
  infectionRateReport,
  vectorIndexReport,
  type Report,
} from '#shared/reports';
import type { BffContext } from '../context';
import { requireSession, sessionOf } from '../require-session';
import { reportCsv } from './report-csv';
import { reportLists, type ReportLists } from './report-lists';
import {
  assertReadableQuery,
  parseReportQuery,
  REPORT_NAMES,
  type ReportName,
  type ReportQuery,
} from './report-query';

/**
 * GET /api/reports/{abundance | abundance-anomaly | infection-rate | vector-index}: the signed-in
 * agency's surveillance reports (spec: shared/spec/surveillance-calculations.md), computed by the
 * shared module on the lists this BFF reads from the upstream. JSON `{rows, count}` (rows' keys in
 * column order) or, with format=csv, a CSV file with the same columns.
 */
export async function reportsRoutes(app: FastifyInstance, ctx: BffContext): Promise<void> {
  for (const name of REPORT_NAMES) {
    app.get(
      `/api/reports/${name}`,
      { preHandler: requireSession(ctx), exposeHeadRoute: false },
      (req, reply) => answer(ctx, name, req, reply),
    );
  }
}

async function answer(ctx: BffContext, name: ReportName, req: FastifyRequest, reply: FastifyReply) {
  // Parameters first: a bad request is answered without reading anything upstream.
  assertReadableQuery(req.url);
  const query = parseReportQuery(name, req.query);
  // The current season when no year is asked for (the shared module has no clock).
  const season = ctx.now().getUTCFullYear();
  const lists = await reportLists(ctx, sessionOf(req));
  const report = compute(name, lists, query, season);
  reply.header('cache-control', 'private, no-store');
  if (query.format === 'csv') {
    const years =
      name === 'abundance-anomaly' ? [query.target_year ?? season] : (query.year ?? [season]);
    const span = [...new Set(years)].sort((a, b) => a - b).join('-');
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="trapline-${name}-${span}.csv"`)
      .send(reportCsv(report));
  }
  return reply.header('content-type', 'application/json; charset=utf-8').send({
    rows: report.rows,
    count: report.rows.length,
  });
}

function compute(name: ReportName, lists: ReportLists, q: ReportQuery, season: number): Report {
  const { format: _format, year, target_year, ...params } = q;
  switch (name) {
    case 'abundance':
      return abundanceReport(lists.collections, { ...params, year: year ?? [season] });
    case 'abundance-anomaly':
      return abundanceAnomalyReport(lists.collections, {
        ...params,
        target_year: target_year ?? season,
      });
    case 'infection-rate':
      return infectionRateReport(lists.pools, { ...params, year: year ?? [season] });
    case 'vector-index':
      return vectorIndexReport(lists.collections, lists.pools, {
        ...params,
        year: year ?? [season],
      });
  }
}
