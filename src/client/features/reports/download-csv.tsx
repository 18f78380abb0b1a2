import { useState } from 'react';
import { fetchReportingConnection, ownerHeaders, request } from '../../lib/http';
import { useI18n } from '../../lib/i18n';
import { reportPath } from './fetch-report';
import type { ReportKind } from './report-choice';

/** `attachment; filename="trapline-abundance-2026.csv"` → the file name. */
function fileNameOf(disposition: string | null, fallback: string): string {
  const m = /filename="?([^";]+)"?/i.exec(disposition ?? '');
  return m ? m[1] : fallback;
}

/**
 * "Download CSV": the same report as the BFF's CSV file. Fetched rather than a plain link:
 * every /api request must carry the X-CSRF header, which a link cannot send. A report is at
 * most a few thousand rows, so holding the file in memory for the save is fine.
 */
export function DownloadCsv({
  kind,
  query,
  online,
}: {
  kind: ReportKind;
  query: string;
  online: boolean;
}) {
  const t = useI18n().formatMessage;
  const [state, setState] = useState<{ busy: boolean; message: string | null }>({
    busy: false,
    message: null,
  });
  const download = async () => {
    setState({ busy: true, message: null });
    const path = reportPath(kind, query, true);
    try {
      const res = await fetchReportingConnection(path, {
        // Named like every request of the app: another user's session gets no file (lib/http).
        headers: { 'X-CSRF': '1', Accept: 'text/csv', ...ownerHeaders() },
        credentials: 'same-origin',
      });
      if (res.status === 401) {
        // Through the app's client, so the sign-in sheet opens as for any expired session.
        await request(reportPath(kind, query));
        throw new Error(
          t({
            id: 'reports.csv.reauth',
            defaultMessage: 'Your sign-in has expired: sign in again, then download.',
          }),
        );
      }
      if (!res.ok)
        throw new Error(
          t(
            {
              id: 'reports.csv.failed',
              defaultMessage: 'The server could not make the file (HTTP {status}).',
            },
            { status: res.status },
          ),
        );
      const blob = await res.blob();
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = fileNameOf(res.headers.get('content-disposition'), `trapline-${kind}.csv`);
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setState({
        busy: false,
        message: t(
          { id: 'reports.csv.downloaded', defaultMessage: 'Downloaded {fileName}' },
          { fileName: a.download },
        ),
      });
    } catch (e) {
      setState({
        busy: false,
        message:
          e instanceof TypeError
            ? t({
                id: 'reports.csv.offline',
                defaultMessage:
                  'No connection: the CSV is made by the server. Try again when online.',
              })
            : e instanceof Error
              ? e.message
              : String(e),
      });
    }
  };
  return (
    <div className="row wrap">
      <button
        type="button"
        className="button"
        onClick={() => void download()}
        disabled={!online || state.busy}
      >
        {state.busy
          ? t({ id: 'reports.csv.preparing', defaultMessage: 'Preparing CSV…' })
          : t({ id: 'reports.csv.download', defaultMessage: 'Download CSV' })}
      </button>
      {!online ? (
        <span className="muted">
          {t({ id: 'reports.csv.needsConnection', defaultMessage: 'The CSV needs a connection.' })}
        </span>
      ) : null}
      {state.message ? (
        <span role="status" className="muted">
          {state.message}
        </span>
      ) : null}
    </div>
  );
}
