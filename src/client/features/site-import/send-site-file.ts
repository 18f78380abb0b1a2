import { IMPORT_MEDIA_TYPES, importReport, type ImportReport } from '#shared/schemas/site-import';
import { NetworkError, request } from '../../lib/http';
import type { ServerError } from '../../lib/i18n';

/** A CSV or GeoJSON file, by its name, else by its first character (`{` opens GeoJSON). */
export async function mediaTypeOf(file: File): Promise<string> {
  if (/\.csv$/i.test(file.name)) return IMPORT_MEDIA_TYPES.csv;
  if (/\.(geo)?json$/i.test(file.name)) return IMPORT_MEDIA_TYPES.geojson;
  const head = (await file.slice(0, 64).text()).replace(/^\ufeff/, '').trimStart();
  return head.startsWith('{') ? IMPORT_MEDIA_TYPES.geojson : IMPORT_MEDIA_TYPES.csv;
}

/**
 * Why a file was not imported, said in words by the screen: the server's error (its code and
 * English sentence), no answer in time, no connection, or an answer this app cannot read.
 */
export type SendFailure =
  { kind: 'server'; error: ServerError } | { kind: 'timeout' | 'offline' | 'unreadable' };

export type SendOutcome =
  | { ok: true; report: ImportReport }
  /** `report` when the server checked the file (its bad rows, or what was written before a failure). */
  | { ok: false; failure: SendFailure; report?: ImportReport };

/** A 20,000-row import writes for a while; the answer is worth waiting for. */
const IMPORT_TIMEOUT_MS = 10 * 60_000;

/** POST /api/import/sites (contract §12): the dry run, or the import itself. */
export async function sendSiteFile(file: File, dryRun: boolean): Promise<SendOutcome> {
  const contentType = await mediaTypeOf(file);
  try {
    const res = await request<unknown>(`/api/import/sites${dryRun ? '?dry_run=true' : ''}`, {
      method: 'POST',
      rawBody: { contentType, data: file },
      timeoutMs: IMPORT_TIMEOUT_MS,
    });
    if (res.ok) {
      const report = importReport.safeParse(res.body);
      return report.success
        ? { ok: true, report: report.data }
        : { ok: false, failure: { kind: 'unreadable' } };
    }
    const report = importReport.safeParse(res.details);
    return {
      ok: false,
      failure: { kind: 'server', error: { code: res.error.code, message: res.error.message } },
      ...(report.success ? { report: report.data } : {}),
    };
  } catch (err) {
    if (!(err instanceof NetworkError)) throw err;
    return { ok: false, failure: { kind: err.timedOut ? 'timeout' : 'offline' } };
  }
}
