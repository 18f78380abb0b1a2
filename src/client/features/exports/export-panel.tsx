import { useEffect, useState } from 'react';
import { request } from '../../lib/http';
import { useOnline } from '../../lib/use-online';
import { downloadExport, DownloadFailed } from './download-export';
import { EXPORT_FILES, type ExportFile, type ExportSummary } from './export-files';

const n = (v: number) => v.toLocaleString('en-US');

type Outcome =
  | { state: 'idle' }
  | { state: 'busy'; rows: number }
  | { state: 'done'; text: string }
  | { state: 'failed'; text: string };

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

function ExportItem({
  file,
  online,
  total,
}: {
  file: ExportFile;
  online: boolean;
  total: number | null;
}) {
  const [outcome, setOutcome] = useState<Outcome>({ state: 'idle' });
  const busy = outcome.state === 'busy';
  const start = async () => {
    setOutcome({ state: 'busy', rows: 0 });
    try {
      const done = await downloadExport(file, (rows) => setOutcome({ state: 'busy', rows }));
      setOutcome({
        state: 'done',
        text: `Downloaded ${n(done.rows)} ${file.rowName} (${done.fileName}).`,
      });
    } catch (e) {
      setOutcome({
        state: 'failed',
        text: e instanceof DownloadFailed ? e.message : 'The download failed. Try again.',
      });
    }
  };
  const id = `export-${file.file.replace('.', '-')}`;
  return (
    <li className="stack">
      <h3 id={id}>{file.title}</h3>
      <p className="muted">
        {file.contains}
        {total !== null ? ` The server holds ${n(total)} ${file.total.noun}.` : ''}
      </p>
      <div className="row wrap">
        <button
          type="button"
          className="button"
          onClick={() => void start()}
          disabled={!online || busy}
        >
          {busy ? `Downloading… ${n(outcome.rows)} ${file.rowName}` : `Download ${file.title}`}
        </button>
        {outcome.state === 'done' ? (
          <span role="status">{outcome.text}</span>
        ) : outcome.state === 'failed' ? (
          <span role="alert">{outcome.text}</span>
        ) : null}
      </div>
    </li>
  );
}

/** Downloads of the agency's data as the server holds it (CSV per entity, sites as GeoJSON). */
export function ExportPanel() {
  const online = useOnline();
  const summary = useSummary(online);
  return (
    <section aria-labelledby="export-heading">
      <h2 id="export-heading">Download the agency&apos;s data</h2>
      <p>
        Files of everything the agency holds on the server (records still waiting on this tablet are
        not in them until they are sent). In CSV files, text starting with = + - or @ gets a leading
        &apos; so spreadsheets show it instead of running it.
      </p>
      {!online ? (
        <p role="status">Downloads need a connection: the files are made by the server.</p>
      ) : null}
      <ul className="stack">
        {EXPORT_FILES.map((f) => (
          <ExportItem
            key={f.file}
            file={f}
            online={online}
            total={summary ? summary[f.total.key] : null}
          />
        ))}
      </ul>
    </section>
  );
}
