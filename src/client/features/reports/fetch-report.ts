import type { Cell } from '#shared/reports';
import type { FieldError } from '#shared/schemas/error';
import { NetworkError, request } from '../../lib/http';
import type { ServerError } from '../../lib/i18n';
import type { ReportKind } from './report-choice';

export type ReportRow = Record<string, Cell>;

/** A report as the BFF computed it, and when (its Date header: the server's clock, not ours). */
export type ReportResult = { rows: ReportRow[]; count: number; computedAt: number };

/** Why a report could not be read, in the terms the screen acts on. */
export class ReportError extends Error {
  constructor(
    readonly reason: 'offline' | 'invalid' | 'reauth' | 'server',
    message: string,
    readonly fields: FieldError[] = [],
    /** The server's error, for `server`: the screen says it by its code. */
    readonly server: ServerError | null = null,
  ) {
    super(message);
  }
}

export function reportPath(kind: ReportKind, query: string, csv = false): string {
  const q = csv ? `${query}${query ? '&' : ''}format=csv` : query;
  return `/api/reports/${kind}${q ? `?${q}` : ''}`;
}

/** GET /api/reports/<kind>?<query>. A 401 also opens the sign-in sheet (lib/http's listeners). */
export async function fetchReport(
  kind: ReportKind,
  query: string,
  signal?: AbortSignal,
): Promise<ReportResult> {
  let res;
  try {
    res = await request<{ rows: ReportRow[]; count: number }>(reportPath(kind, query), {
      signal,
      timeoutMs: 120_000,
    });
  } catch (e) {
    if (e instanceof NetworkError)
      throw new ReportError('offline', 'The server could not be reached.');
    throw e;
  }
  if (res.ok) {
    const date = Date.parse(res.headers.get('date') ?? '');
    return {
      rows: res.body.rows,
      count: res.body.count,
      computedAt: Number.isNaN(date) ? Date.now() : date,
    };
  }
  if (res.status === 401)
    throw new ReportError('reauth', 'Your sign-in has expired: sign in again to see reports.');
  if (res.status === 422 || res.status === 400)
    throw new ReportError('invalid', res.error.message, res.error.fields ?? []);
  throw new ReportError(
    'server',
    `The server could not compute this report (${res.error.message}). Try again in a minute.`,
    [],
    { code: res.error.code, message: res.error.message },
  );
}
