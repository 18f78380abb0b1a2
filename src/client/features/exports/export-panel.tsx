import { useEffect, useState } from 'react';
import type { IntlShape } from 'react-intl';
import { request } from '../../lib/http';
import { serverMessage, useI18n } from '../../lib/i18n';
import { useOnline } from '../../lib/use-online';
import { downloadExport, DownloadFailed, type DownloadFailure } from './download-export';
import {
  EXPORT_FILES,
  exportWords,
  type ExportFile,
  type ExportSummary,
  type ExportWords,
} from './export-files';

type Outcome =
  | { state: 'idle' }
  | { state: 'busy'; rows: number }
  | { state: 'done'; rows: number; fileName: string }
  | { state: 'failed'; failure: DownloadFailure | null };

/** The server's totals before any download (GET /api/export/summary); null until known. */
function useSummary(online: boolean): ExportSummary | null {
  const [summary, setSummary] = useState<ExportSummary | null>(null);
  useEffect(() => {
    if (!online) return;
    let live = true;
    request<ExportSummary>('/api/export/summary')
      .then((res) => {
        if (live && res.ok) setSummary(res.body);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [online]);
  return summary;
}

/** Why a download gave no file, in the person's language; null: a failure not foreseen. */
function failureText(intl: IntlShape, words: ExportWords, failure: DownloadFailure | null): string {
  const t = intl.formatMessage;
  switch (failure?.kind) {
    case 'offline':
      return t({
        id: 'exports.failure.offline',
        defaultMessage: 'No connection: the file is made by the server. Try again when online.',
      });
    case 'reauth':
      return t({
        id: 'exports.failure.reauth',
        defaultMessage: 'Your sign-in has expired: sign in again, then download.',
      });
    case 'broke':
      return t(
        {
          id: 'exports.failure.broke',
          defaultMessage: 'The download broke off after {rows}: nothing was saved. Try again.',
        },
        { rows: words.rows(failure.rows) },
      );
    case 'server':
      return failure.error
        ? serverMessage(intl, failure.error)
        : t(
            {
              id: 'exports.failure.server',
              defaultMessage: 'The server could not make the file (HTTP {status}).',
            },
            { status: failure.status },
          );
    default:
      return t({ id: 'exports.failure.other', defaultMessage: 'The download failed. Try again.' });
  }
}

function ExportItem({
  file,
  online,
  total,
}: {
  file: ExportFile;
  online: boolean;
  total: number | null;
}) {
  const intl = useI18n();
  const t = intl.formatMessage;
  const words = exportWords(intl, file.file);
  const [outcome, setOutcome] = useState<Outcome>({ state: 'idle' });
  const busy = outcome.state === 'busy';
  const start = async () => {
    setOutcome({ state: 'busy', rows: 0 });
    try {
      const done = await downloadExport(file, (rows) => setOutcome({ state: 'busy', rows }));
      setOutcome({ state: 'done', rows: done.rows, fileName: done.fileName });
    } catch (e) {
      setOutcome({ state: 'failed', failure: e instanceof DownloadFailed ? e.failure : null });
    }
  };
  const id = `export-${file.file.replace('.', '-')}`;
  return (
    <li className="stack">
      <h3 id={id}>{words.title}</h3>
      <p className="muted">
        {total !== null ? `${words.contains} ${words.holds(total)}` : words.contains}
      </p>
      <div className="row wrap">
        <button
          type="button"
          className="button"
          onClick={() => void start()}
          disabled={!online || busy}
        >
          {outcome.state === 'busy'
            ? t(
                { id: 'exports.downloading', defaultMessage: 'Downloading… {rows}' },
                { rows: words.rows(outcome.rows) },
              )
            : t(
                { id: 'exports.download', defaultMessage: 'Download {title}' },
                { title: words.title },
              )}
        </button>
        {outcome.state === 'done' ? (
          <span role="status">
            {t(
              { id: 'exports.downloaded', defaultMessage: 'Downloaded {rows} ({fileName}).' },
              { rows: words.rows(outcome.rows), fileName: outcome.fileName },
            )}
          </span>
        ) : outcome.state === 'failed' ? (
          <span role="alert">{failureText(intl, words, outcome.failure)}</span>
        ) : null}
      </div>
    </li>
  );
}

/** Downloads of the agency's data as the server holds it (CSV per entity, sites as GeoJSON). */
export function ExportPanel() {
  const t = useI18n().formatMessage;
  const online = useOnline();
  const summary = useSummary(online);
  return (
    <section aria-labelledby="export-heading">
      <h2 id="export-heading">
        {t({ id: 'exports.title', defaultMessage: "Download the agency's data" })}
      </h2>
      <p>
        {t({
          id: 'exports.about',
          defaultMessage:
            "Files of everything the agency holds on the server (records still waiting on this tablet are not in them until they are sent). In CSV files, text starting with = + - or @ gets a leading ' so spreadsheets show it instead of running it.",
        })}
      </p>
      {!online ? (
        <p role="status">
          {t({
            id: 'exports.offline',
            defaultMessage: 'Downloads need a connection: the files are made by the server.',
          })}
        </p>
      ) : null}
      <ul className="stack">
        {EXPORT_FILES.map((f) => (
          <ExportItem
            key={f.file}
            file={f}
            online={online}
            total={summary ? summary[f.total] : null}
          />
        ))}
      </ul>
    </section>
  );
}
