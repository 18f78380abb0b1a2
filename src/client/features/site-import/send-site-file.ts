import { IMPORT_MEDIA_TYPES, importReport, type ImportReport } from '#shared/schemas/site-import';
import { NetworkError, request } from '../../lib/http';

/** A CSV or GeoJSON file, by its name, else by its first character (`{` opens GeoJSON). */
export async function mediaTypeOf(file: File): Promise<string> {
  if (/\.csv$/i.test(file.name)) return IMPORT_MEDIA_TYPES.csv;
  if (/\.(geo)?json$/i.test(file.name)) return IMPORT_MEDIA_TYPES.geojson;
  const head = (await file.slice(0, 64).text()).replace(/^\ufeff/, '').trimStart();
  return head.startsWith('{') ? IMPORT_MEDIA_TYPES.geojson : IMPORT_MEDIA_TYPES.csv;
}

export type SendOutcome =
  | { ok: true; report: ImportReport }
  /** `report` when the server checked the file (its bad rows, or what was written before a failure). */
  | { ok: false; message: string; report?: ImportReport };

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
        : { ok: false, message: 'The server answered in a way this app does not understand' };
    }
    const report = importReport.safeParse(res.details);
    return {
      ok: false,
      message: res.error.message,
      ...(report.success ? { report: report.data } : {}),
    };
  } catch (err) {
    if (!(err instanceof NetworkError)) throw err;
    return {
      ok: false,
      message: err.timedOut
        ? 'The server did not answer in time. Choose the file again to see what was imported: importing it again never makes a site twice'
        : 'No connection to the office server: the file was not sent. Try again when the tablet is online',
    };
  }
}
