import { useId, useState, type ChangeEvent } from 'react';
import { Link } from 'wouter';
import {
  IMPORT_COLUMNS,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
  REQUIRED_IMPORT_COLUMNS,
  type ImportReport,
} from '#shared/schemas/site-import';
import { useOnline } from '../../lib/use-online';
import { ImportProblems } from './import-problems';
import { mediaTypeOf, sendSiteFile } from './send-site-file';
import './site-import.css';

type Step =
  | { at: 'choose' }
  | { at: 'checking'; file: File }
  | { at: 'checked'; file: File; report: ImportReport; geojson: boolean }
  | { at: 'importing'; file: File; report: ImportReport; geojson: boolean }
  | { at: 'imported'; file: File; report: ImportReport }
  | { at: 'failed'; file: File | null; message: string; report?: ImportReport; geojson: boolean };

const n = (v: number) => v.toLocaleString('en-US');
const plural = (v: number, one: string, many = `${one}s`) => `${n(v)} ${v === 1 ? one : many}`;

export type SiteImportScreenProps = {
  /** Called once sites were written: the app pulls them to this tablet now. */
  onImported?: () => void;
};

/**
 * The Office's site import (contract §12), for managers: choose a CSV or GeoJSON file, see the
 * dry run (what would be created, updated or left, and every bad row with its row and column),
 * then import. A file with any problem imports nothing; importing the same file again changes
 * nothing more.
 */
export function SiteImportScreen({ onImported }: SiteImportScreenProps) {
  const online = useOnline();
  const inputId = useId();
  const [step, setStep] = useState<Step>({ at: 'choose' });
  const busy = step.at === 'checking' || step.at === 'importing';

  const check = async (file: File) => {
    setStep({ at: 'checking', file });
    const geojson = (await mediaTypeOf(file)) !== 'text/csv';
    const out = await sendSiteFile(file, true);
    setStep(
      out.ok
        ? { at: 'checked', file, report: out.report, geojson }
        : { at: 'failed', file, message: out.message, report: out.report, geojson },
    );
  };

  const importNow = async () => {
    if (step.at !== 'checked') return;
    const { file, report, geojson } = step;
    setStep({ at: 'importing', file, report, geojson });
    const out = await sendSiteFile(file, false);
    if (out.ok) {
      setStep({ at: 'imported', file, report: out.report });
      onImported?.();
    } else {
      // Sites written before a failure are on the server: let the tablet have them too.
      if (out.report && out.report.created + out.report.updated > 0) onImported?.();
      setStep({ at: 'failed', file, message: out.message, report: out.report, geojson });
    }
  };

  const onChoose = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    // The same file may be chosen again after it was fixed: let the input see it as new.
    e.target.value = '';
    if (file) void check(file);
  };

  return (
    <section className="screen site-import" aria-labelledby={`${inputId}-title`}>
      <h1 id={`${inputId}-title`}>Import sites</h1>
      <p>
        Add or update the agency&apos;s trap sites from a spreadsheet saved as CSV or from a GIS
        layer of points saved as GeoJSON. The file is checked first; nothing is written until you
        press Import, and a file with any problem imports nothing.
      </p>
      <details className="site-import-help">
        <summary>What the file holds</summary>
        <p>
          One site per row, with a header row naming the columns:{' '}
          <code>{IMPORT_COLUMNS.join(', ')}</code>. Required: {REQUIRED_IMPORT_COLUMNS.join(', ')}.
          Coordinates in decimal degrees (WGS 84); the coordinate precision by its number or name,
          like 1 or &quot;GPS (&lt; 10 m)&quot;; dates like 2026-04-01. In GeoJSON, each feature is
          a Point and the other columns are its properties.
        </p>
        <p>
          A site code the agency already has updates that site where the file differs; a new code
          adds a site. A column left out of the file leaves that field as it is. At most{' '}
          {n(MAX_IMPORT_ROWS)} sites and {n(MAX_IMPORT_BYTES / (1024 * 1024))} MB a file.
        </p>
      </details>

      {!online && (
        <p className="site-import-offline" role="note">
          Importing needs a connection to the office server. Choose the file once the tablet is
          online.
        </p>
      )}

      <div className="row wrap">
        <input
          id={inputId}
          className="site-import-input"
          type="file"
          accept=".csv,.geojson,.json,text/csv,application/geo+json"
          disabled={busy || !online}
          onChange={onChoose}
        />
        <label
          htmlFor={inputId}
          className="button button-big site-import-choose"
          aria-disabled={busy || !online}
        >
          {step.at === 'choose' ? 'Choose a CSV or GeoJSON file' : 'Choose another file'}
        </label>
      </div>

      {step.at === 'checking' && <p role="status">Checking {step.file.name}…</p>}
      {(step.at === 'checked' || step.at === 'importing') && (
        <DryRun
          name={step.file.name}
          report={step.report}
          geojson={step.geojson}
          importing={step.at === 'importing'}
          onImport={() => void importNow()}
        />
      )}
      {step.at === 'imported' && <Imported name={step.file.name} report={step.report} />}
      {step.at === 'failed' && (
        <div className="site-import-result" role="alert">
          <h2>{step.file ? `${step.file.name} was not imported` : 'The file was not imported'}</h2>
          <p>{step.message}</p>
          {step.report && step.report.errors.length > 0 && (
            <ImportProblems errors={step.report.errors} geojson={step.geojson} />
          )}
        </div>
      )}
    </section>
  );
}

function Counts({ report, done }: { report: ImportReport; done: boolean }) {
  return (
    <dl className="facts site-import-counts">
      <dt>Rows</dt>
      <dd>{n(report.rows)}</dd>
      <dt>{done ? 'Created' : 'To create'}</dt>
      <dd>{n(report.created)}</dd>
      <dt>{done ? 'Updated' : 'To update'}</dt>
      <dd>{n(report.updated)}</dd>
      <dt>Unchanged</dt>
      <dd>{n(report.unchanged)}</dd>
    </dl>
  );
}

function DryRun({
  name,
  report,
  geojson,
  importing,
  onImport,
}: {
  name: string;
  report: ImportReport;
  geojson: boolean;
  importing: boolean;
  onImport: () => void;
}) {
  const problems = report.errors.length;
  const badRows = new Set(report.errors.map((e) => e.row)).size;
  const work = report.created + report.updated;
  return (
    <section className="site-import-result" aria-label={`Check of ${name}`}>
      <h2>Check of {name}</h2>
      <Counts report={report} done={false} />
      {problems > 0 ? (
        <>
          <p className="site-import-problem-note" role="alert">
            {plural(problems, 'problem')} in {plural(badRows, geojson ? 'feature' : 'row')}: nothing
            can be imported until {problems === 1 ? 'it is' : 'they are'} fixed. Fix the file and
            choose it again.
          </p>
          <ImportProblems errors={report.errors} geojson={geojson} />
        </>
      ) : work === 0 ? (
        <p>Every site in the file is already in Trapline as it is: there is nothing to import.</p>
      ) : (
        <div className="row wrap">
          <button
            type="button"
            className="button button-primary button-big"
            disabled={importing}
            onClick={onImport}
          >
            {importing ? 'Importing…' : `Import ${plural(work, 'site')}`}
          </button>
        </div>
      )}
      {importing && (
        <p role="status">Importing {name}: this takes up to half a minute for a large file.</p>
      )}
    </section>
  );
}

function Imported({ name, report }: { name: string; report: ImportReport }) {
  return (
    <section className="site-import-result" aria-label={`Import of ${name}`}>
      <h2>Imported {name}</h2>
      <Counts report={report} done />
      <p role="status">
        {plural(report.created, 'site')} created, {n(report.updated)} updated, {n(report.unchanged)}{' '}
        unchanged. Tablets get the new sites at their next pull; this tablet is getting them now.
      </p>
      <Link href="/sites" className="button">
        Open Sites
      </Link>
    </section>
  );
}
