/**
 * Entry of the BFF's report worker (report-worker.ts): reads agencies' lists from the upstream,
 * keeps them until the BFF forgets them, computes reports on them and hands their text back a
 * chunk at a time. Everything heavy a report does happens here, never on the BFF's event loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ReportRowBudgetExceeded, type Report } from '#shared/reports';
import { HttpError } from '../../http/http-error';
import { UpstreamClient } from '../upstream-client';
import { PageSlots } from './page-slots';
import { computeReport } from './report-compute';
import { readReportLists, REPORT_PAGES_AT_ONCE, type ReportLists } from './report-list-read';
import { listNames } from './report-names';
import { reportCsvChunks, reportJsonChunks } from './report-stream';
import type { FromReportWorker, ToReportWorker, WireError } from './report-worker-protocol';
import type { ReportWorkerData } from './report-worker';

const port = parentPort;
if (!port) throw new Error('report-worker-main.ts runs only as a worker thread');
const data = workerData as ReportWorkerData;
const upstream = new UpstreamClient(data.upstreamUrl, data.timeouts);
const slots = new PageSlots(REPORT_PAGES_AT_ONCE);

/** Reads under way (stopped by `abort`) and read lists kept (until `forget`). */
const reading = new Map<number, AbortController>();
const lists = new Map<number, ReportLists>();
/** Reports computed and being sent, as the rest of their text. */
const jobs = new Map<number, Iterator<string>>();

const say = (m: FromReportWorker) => port.postMessage(m);

/** An HttpError as it is (a 502 of the upstream, a 401 of a token); anything else, a 500. */
function wire(err: unknown): WireError {
  if (!(err instanceof HttpError)) {
    console.error('report worker:', err);
    return { status: 500, code: 'internal', message: 'The report could not be computed' };
  }
  return {
    status: err.status,
    code: err.code,
    message: err.message,
    ...(err.fields ? { fields: err.fields } : {}),
  };
}

async function read(readId: number, token: string, agencyId: number): Promise<void> {
  const controller = new AbortController();
  reading.set(readId, controller);
  try {
    const read = await readReportLists({ upstream, token, agencyId, slots }, controller.signal);
    lists.set(readId, read);
    const names = listNames(read);
    say({
      type: 'read-done',
      readId,
      names: { species: [...names.species], trap: [...names.trap] },
    });
  } catch (err) {
    // An abandoned read's end is nobody's error: the BFF has stopped waiting for it.
    if (!controller.signal.aborted) say({ type: 'read-failed', readId, error: wire(err) });
  } finally {
    reading.delete(readId);
  }
}

function report(m: Extract<ToReportWorker, { type: 'report' }>): void {
  const read = lists.get(m.readId);
  if (!read) {
    say({
      type: 'report-failed',
      jobId: m.jobId,
      error: { status: 500, code: 'internal', message: 'The lists of this report are gone' },
    });
    return;
  }
  let computed: Report;
  try {
    computed = computeReport(m.name, read, m.query, m.season, m.rowBudget);
  } catch (err) {
    if (err instanceof ReportRowBudgetExceeded) {
      say({ type: 'report-over-budget', jobId: m.jobId, rows: err.rows, budget: err.budget });
    } else {
      say({ type: 'report-failed', jobId: m.jobId, error: wire(err) });
    }
    return;
  }
  const chunks = m.query.format === 'csv' ? reportCsvChunks(computed) : reportJsonChunks(computed);
  jobs.set(m.jobId, chunks[Symbol.iterator]());
  say({ type: 'report-ready', jobId: m.jobId });
}

function more(jobId: number): void {
  const chunks = jobs.get(jobId);
  if (!chunks) return;
  const next = chunks.next();
  if (next.done) jobs.delete(jobId);
  say({ type: 'chunk', jobId, text: next.done ? null : next.value });
}

port.on('message', (m: ToReportWorker) => {
  switch (m.type) {
    case 'read':
      void read(m.readId, m.token, m.agencyId);
      return;
    case 'abort':
      reading.get(m.readId)?.abort();
      return;
    case 'forget':
      lists.delete(m.readId);
      return;
    case 'report':
      report(m);
      return;
    case 'more':
      more(m.jobId);
      return;
    case 'cancel':
      jobs.delete(m.jobId);
      return;
  }
});
