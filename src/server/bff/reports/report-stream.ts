import type { Report } from '#shared/reports';
import { CSV_BOM, csvLine } from './report-csv';

/**
 * Rows serialised per chunk: big enough that a chunk is one write, small enough that a report of
 * tens of thousands of rows never sits in memory as one string (issue 36 N1: 149 MB of JSON
 * built whole) and other requests are served between chunks.
 */
const ROWS_PER_CHUNK = 500;

/** `{"rows":[…],"count":N}` chunk by chunk: the same text as JSON.stringify of the whole. */
export function* reportJsonChunks(report: Report): Generator<string> {
  yield '{"rows":[';
  for (let at = 0; at < report.rows.length; at += ROWS_PER_CHUNK) {
    const rows = report.rows.slice(at, at + ROWS_PER_CHUNK).map((r) => JSON.stringify(r));
    yield (at === 0 ? '' : ',') + rows.join(',');
  }
  yield `],"count":${report.rows.length}}`;
}

/** The CSV (report-csv.ts) chunk by chunk: the byte-order mark and header line, then the rows. */
export function* reportCsvChunks(report: Report): Generator<string> {
  yield CSV_BOM + csvLine(report.columns);
  for (let at = 0; at < report.rows.length; at += ROWS_PER_CHUNK) {
    yield report.rows
      .slice(at, at + ROWS_PER_CHUNK)
      .map((row) => csvLine(report.columns.map((c) => row[c])))
      .join('');
  }
}
