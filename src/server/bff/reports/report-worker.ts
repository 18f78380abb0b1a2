/**
 * The BFF's report worker: a thread that reads agencies' lists from the upstream, keeps them and
 * computes reports on them (report-worker-main.ts), so that none of it runs on the BFF's event
 * loop. A district's read is some 150,000 records of JSON parsed and checked, and one report
 * over them is seconds of CPU on a loaded machine: on the BFF's own thread every other user's
 * request waited behind it (another user's site list waited 1.7–3.4 s, issue 36).
 *
 * The thread's heap has its own limit (REPORT_WORKER_HEAP_MB, `resourceLimits`): a report that
 * outgrows it ends the thread, not the BFF. Its callers get 503 report_unavailable, the lists it
 * held are gone, and the next report starts a fresh thread.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { HttpError } from '../../http/http-error';
import type { UpstreamTimeouts } from '../upstream-client';
import type { KnownNames } from './report-names';
import type { ReportName, ReportQuery } from './report-query';
import type { FromReportWorker, ToReportWorker, WireError } from './report-worker-protocol';

export type ReportWorkerData = { upstreamUrl: string; timeouts: UpstreamTimeouts };

/**
 * Old-generation heap of the report worker. A district of 100,000 collections and 50,000 pools,
 * read and kept, is ~250 MB of objects; a report within the row budget adds tens of MB. With the
 * BFF's own heap and the thread's young generation this keeps the BFF process under 1 GB.
 */
export const REPORT_WORKER_HEAP_MB = 512;

/** The thread has ended (out of memory, a crash): what its callers are answered. */
const reportUnavailable = () =>
  new HttpError(
    503,
    'report_unavailable',
    'The report needed more than the server sets aside for reports and was stopped. ' +
      'Ask for fewer years, species or traps, or try again in a minute.',
    undefined,
    { 'retry-after': '60' },
  );

/** A report over its row budget: the BFF's 422 names the parameters (reports-routes.ts). */
export class OverBudget extends Error {
  constructor(
    readonly rows: number,
    readonly budget: number,
  ) {
    super(`A report of ${rows} rows is over its budget of ${budget}`);
    this.name = 'OverBudget';
  }
}

// The thread runs TypeScript like the process that starts it (as records-thread.ts does): it
// registers tsx's loader, then imports the entry. Both resolved from here.
const TSX_API = pathToFileURL(
  join(
    dirname(createRequire(import.meta.url).resolve('tsx/package.json')),
    'dist/esm/api/index.mjs',
  ),
).href;
const ENTRY = new URL('./report-worker-main.ts', import.meta.url).href;
const BOOT = `(async () => {
  const { register } = await import(${JSON.stringify(TSX_API)});
  register();
  await import(${JSON.stringify(ENTRY)});
})().catch((err) => { console.error(err); process.exit(1); });`;

/**
 * Read lists held by the worker. Counted: the cache holds one reference while it keeps them, and
 * each request holds one from getting them until its report is computed; the worker lets them go
 * when the last is released. Lists of a thread that has ended are `gone`.
 */
export class ListsHandle {
  private refs = 1;

  constructor(
    private readonly owner: ReportWorker,
    private readonly thread: Worker,
    readonly readId: number,
    /** When the read started (ISO), so a report can say how fresh it is. */
    readonly readAt: string,
    /** The species and trap names in the agency's own records. */
    readonly names: KnownNames,
  ) {}

  get gone(): boolean {
    return !this.owner.runs(this.thread);
  }

  acquire(): this {
    this.refs += 1;
    return this;
  }

  release(): void {
    this.refs -= 1;
    if (this.refs === 0 && !this.gone) this.owner.send({ type: 'forget', readId: this.readId });
  }

  /** The report on these lists, computed by the worker (rejects OverBudget, HttpError). */
  report(
    name: ReportName,
    query: ReportQuery,
    season: number,
    rowBudget: number,
  ): Promise<Readable> {
    if (this.gone) return Promise.reject(reportUnavailable());
    return this.owner.report(this.readId, name, query, season, rowBudget);
  }
}

type PendingRead = {
  resolve(names: KnownNames): void;
  reject(err: unknown): void;
};
type Job = {
  ready(err: unknown | null): void;
  chunk(text: string | null): void;
  fail(err: unknown): void;
};

export class ReportWorker {
  private thread: Worker | null = null;
  private nextId = 1;
  private readonly reads = new Map<number, PendingRead>();
  private readonly jobs = new Map<number, Job>();
  private closed = false;
  /** Heap limits of the next thread started (tests set a small one). */
  resourceLimits: ResourceLimits = { maxOldGenerationSizeMb: REPORT_WORKER_HEAP_MB };

  constructor(private readonly data: ReportWorkerData) {}

  runs(thread: Worker): boolean {
    return this.thread === thread;
  }

  send(m: ToReportWorker): void {
    this.thread?.postMessage(m);
  }

  /**
   * The agency's lists, read by the worker with `token`. `stop` aborting stops the read between
   * pages and rejects with its reason.
   */
  read(token: string, agencyId: number, readAt: string, stop: AbortSignal): Promise<ListsHandle> {
    stop.throwIfAborted();
    const thread = this.started();
    const readId = this.nextId++;
    return new Promise<ListsHandle>((resolve, reject) => {
      const leave = () => {
        this.reads.delete(readId);
        thread.postMessage({ type: 'abort', readId } satisfies ToReportWorker);
        reject(stop.reason);
      };
      stop.addEventListener('abort', leave, { once: true });
      this.reads.set(readId, {
        resolve: (names) => {
          stop.removeEventListener('abort', leave);
          resolve(new ListsHandle(this, thread, readId, readAt, names));
        },
        reject: (err) => {
          stop.removeEventListener('abort', leave);
          reject(err);
        },
      });
      thread.postMessage({ type: 'read', readId, token, agencyId } satisfies ToReportWorker);
    });
  }

  /**
   * Resolves once the report is computed within its budget, with a stream of its text that asks
   * the worker for each next chunk as the answer drains (backpressure across the thread).
   * Destroying the stream (its client has gone) drops the report in the worker.
   */
  report(
    readId: number,
    name: ReportName,
    query: ReportQuery,
    season: number,
    rowBudget: number,
  ): Promise<Readable> {
    const thread = this.started();
    const jobId = this.nextId++;
    let asked = false;
    const stream = new Readable({
      read: () => {
        if (asked) return;
        asked = true;
        thread.postMessage({ type: 'more', jobId } satisfies ToReportWorker);
      },
      destroy: (err, done) => {
        if (this.jobs.delete(jobId)) {
          thread.postMessage({ type: 'cancel', jobId } satisfies ToReportWorker);
        }
        done(err);
      },
    });
    return new Promise<Readable>((resolve, reject) => {
      this.jobs.set(jobId, {
        ready: (err) => {
          if (err) {
            this.jobs.delete(jobId);
            reject(err);
          } else resolve(stream);
        },
        chunk: (text) => {
          asked = false;
          if (text === null) this.jobs.delete(jobId);
          stream.push(text === null ? null : Buffer.from(text, 'utf8'));
        },
        fail: (err) => {
          reject(err); // before it was ready; after, the stream ends in error
          stream.destroy(err as Error);
        },
      });
      thread.postMessage({
        type: 'report',
        jobId,
        readId,
        name,
        query,
        season,
        rowBudget,
      } satisfies ToReportWorker);
    });
  }

  /**
   * Ends the running thread as a crash would (its reads and reports fail with 503); the next
   * report starts a new one with `limits` (tests give it a small heap).
   */
  async restart(limits: ResourceLimits = this.resourceLimits): Promise<void> {
    this.resourceLimits = limits;
    await this.thread?.terminate();
  }

  /** Ends the thread (the BFF is closing): reads and reports under way fail. */
  async close(): Promise<void> {
    this.closed = true;
    const thread = this.thread;
    if (thread) await thread.terminate();
  }

  private started(): Worker {
    if (this.closed) throw reportUnavailable();
    if (this.thread) return this.thread;
    const thread = new Worker(BOOT, {
      eval: true,
      workerData: this.data,
      resourceLimits: this.resourceLimits,
    });
    // The BFF's process may end with the thread idle (its lists kept): it never holds it open.
    thread.unref();
    thread.on('message', (m: FromReportWorker) => this.heard(m));
    thread.on('error', (err) => {
      // ERR_WORKER_OUT_OF_MEMORY or an uncaught throw: the thread ends after this.
      console.error('report worker ended:', err);
    });
    thread.once('exit', () => this.ended(thread));
    this.thread = thread;
    return thread;
  }

  /** Every read and report of the thread fails with 503; the next report starts a new one. */
  private ended(thread: Worker): void {
    if (this.thread !== thread) return;
    this.thread = null;
    const reads = [...this.reads.values()];
    const jobs = [...this.jobs.values()];
    this.reads.clear();
    this.jobs.clear();
    for (const r of reads) r.reject(reportUnavailable());
    for (const j of jobs) j.fail(reportUnavailable());
  }

  private heard(m: FromReportWorker): void {
    switch (m.type) {
      case 'read-done': {
        const read = this.reads.get(m.readId);
        this.reads.delete(m.readId);
        if (read) read.resolve({ species: new Set(m.names.species), trap: new Set(m.names.trap) });
        else this.send({ type: 'forget', readId: m.readId }); // nobody waits: abandoned
        return;
      }
      case 'read-failed': {
        const read = this.reads.get(m.readId);
        this.reads.delete(m.readId);
        read?.reject(fromWire(m.error));
        return;
      }
      case 'report-ready':
        this.jobs.get(m.jobId)?.ready(null);
        return;
      case 'report-failed':
        this.jobs.get(m.jobId)?.ready(fromWire(m.error));
        return;
      case 'report-over-budget':
        this.jobs.get(m.jobId)?.ready(new OverBudget(m.rows, m.budget));
        return;
      case 'chunk':
        this.jobs.get(m.jobId)?.chunk(m.text);
        return;
    }
  }
}

function fromWire(e: WireError): HttpError {
  return new HttpError(e.status, e.code, e.message, e.fields);
}
