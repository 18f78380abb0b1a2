import type { ErrorCode, FieldError } from '#shared/schemas/error';
import type { ReportName, ReportQuery } from './report-query';

/**
 * The messages between the BFF's thread (report-worker.ts) and its report worker
 * (report-worker-main.ts). Every id is the BFF's: `readId` names one read of an agency's lists
 * (kept in the worker until forgotten), `jobId` one report being computed and sent.
 */
export type ToReportWorker =
  /** Read the agency's lists with this token; answered `read-done` or `read-failed`. */
  | { type: 'read'; readId: number; token: string; agencyId: number }
  /** Every request waiting for the read has gone: stop it between pages. */
  | { type: 'abort'; readId: number }
  /** No report will use these lists again: let them go. */
  | { type: 'forget'; readId: number }
  /** Compute a report on read lists; answered `report-ready` or `report-failed`. */
  | {
      type: 'report';
      jobId: number;
      readId: number;
      name: ReportName;
      query: ReportQuery;
      season: number;
      rowBudget: number;
    }
  /** The answer has room for the next chunk of the job's text. */
  | { type: 'more'; jobId: number }
  /** The job's client has gone: drop the report. */
  | { type: 'cancel'; jobId: number };

/** An HttpError as it crosses the thread boundary (an Error's class does not). */
export type WireError = { status: number; code: ErrorCode; message: string; fields?: FieldError[] };

export type FromReportWorker =
  | {
      type: 'read-done';
      readId: number;
      /** The species and trap names in the agency's own records (report-names.ts). */
      names: { species: string[]; trap: string[] };
    }
  | { type: 'read-failed'; readId: number; error: WireError }
  /** The report is computed and within its budget: its text follows chunk by chunk. */
  | { type: 'report-ready'; jobId: number }
  | { type: 'report-failed'; jobId: number; error: WireError }
  | { type: 'report-over-budget'; jobId: number; rows: number; budget: number }
  /** The next piece of the job's text; null once the text has all been sent. */
  | { type: 'chunk'; jobId: number; text: string | null };
