import { fetchReportingConnection, ownerHeaders, request } from '../../lib/http';
import type { ServerError } from '../../lib/i18n';
import type { ExportFile } from './export-files';
import { rowCounter } from './row-counter';

export type DownloadOutcome = { rows: number; fileName: string };

/**
 * Why a download did not give a file; the panel says it in the person's language. `server`:
 * the server's error (its code and English sentence); `broke`: the stream ended early after
 * `rows` rows.
 */
export type DownloadFailure =
  | { kind: 'offline' | 'reauth' }
  | { kind: 'server'; status: number; error: ServerError | null }
  | { kind: 'broke'; rows: number };

export class DownloadFailed extends Error {
  constructor(readonly failure: DownloadFailure) {
    super(failure.kind);
  }
}

/** `attachment; filename="trapline-x-collections-2026-05-01.csv"` → the file name. */
function fileNameIn(disposition: string | null, fallback: string): string {
  const m = /filename="?([^";]+)"?/i.exec(disposition ?? '');
  return m ? m[1] : fallback;
}

/**
 * Downloads one export and offers it to the browser to save. Fetched rather than a plain link:
 * every /api request must carry X-CSRF, which a link cannot send. The body is counted as it
 * streams into a Blob (the browser keeps large blobs in its own storage, on disk if need be, not
 * in the page's memory), and the file is offered only if the stream ended normally: the BFF
 * aborts the response when the server fails mid-way, so a broken file is never saved.
 */
export async function downloadExport(
  file: ExportFile,
  onRows?: (rows: number) => void,
): Promise<DownloadOutcome> {
  const path = `/api/export/${file.file}`;
  let res: Response;
  try {
    res = await fetchReportingConnection(path, {
      // Named like every request of the app: another user's session gets no file made (lib/http).
      headers: { 'X-CSRF': '1', ...ownerHeaders() },
      credentials: 'same-origin',
    });
  } catch {
    throw new DownloadFailed({ kind: 'offline' });
  }
  if (res.status === 401) {
    // Through the app's client, so the sign-in sheet opens as for any expired session.
    await request('/api/export/summary');
    throw new DownloadFailed({ kind: 'reauth' });
  }
  if (!res.ok || !res.body) {
    const body = (await res.json().catch(() => null)) as {
      error?: { code?: string; message?: string };
    } | null;
    const error =
      body?.error?.code && body.error.message
        ? { code: body.error.code, message: body.error.message }
        : null;
    throw new DownloadFailed({ kind: 'server', status: res.status, error });
  }
  const counter = rowCounter(file.file.endsWith('.geojson') ? 'geojson' : 'csv');
  const counted = res.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        counter.push(chunk);
        onRows?.(counter.rows());
        controller.enqueue(chunk);
      },
      flush() {
        counter.push(new Uint8Array(), true);
      },
    }),
  );
  let blob: Blob;
  try {
    blob = await new Response(counted).blob();
  } catch {
    throw new DownloadFailed({ kind: 'broke', rows: counter.rows() });
  }
  const fileName = fileNameIn(res.headers.get('content-disposition'), `trapline-${file.file}`);
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return { rows: counter.rows(), fileName };
}
