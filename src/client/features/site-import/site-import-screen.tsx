import { useId, useState, type ChangeEvent } from 'react';
import { Link } from 'wouter';
import {
  IMPORT_COLUMNS,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
  REQUIRED_IMPORT_COLUMNS,
  type ImportReport,
} from '#shared/schemas/site-import';
import { useI18n } from '../../lib/i18n';
import { useOnline } from '../../lib/use-online';
import { failureWords } from './failure-words';
import { ImportProblems } from './import-problems';
import { mediaTypeOf, sendSiteFile, type SendFailure } from './send-site-file';
import './site-import.css';

type Step =
  | { at: 'choose' }
  | { at: 'checking'; file: File }
  | { at: 'checked'; file: File; report: ImportReport; geojson: boolean }
  | { at: 'importing'; file: File; report: ImportReport; geojson: boolean }
  | { at: 'imported'; file: File; report: ImportReport }
  | {
      at: 'failed';
      file: File | null;
      failure: SendFailure;
      report?: ImportReport;
      geojson: boolean;
    };

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
  const intl = useI18n();
  const t = intl.formatMessage;
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
        : { at: 'failed', file, failure: out.failure, report: out.report, geojson },
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
      setStep({ at: 'failed', file, failure: out.failure, report: out.report, geojson });
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
      <h1 id={`${inputId}-title`}>
        {t({ id: 'siteImport.title', defaultMessage: 'Import sites' })}
      </h1>
      <p>
        {t({
          id: 'siteImport.intro',
          defaultMessage:
            "Add or update the agency's trap sites from a spreadsheet saved as CSV or from a GIS layer of points saved as GeoJSON. The file is checked first; nothing is written until you press Import, and a file with any problem imports nothing.",
        })}
      </p>
      <details className="site-import-help">
        <summary>
          {t({ id: 'siteImport.help.title', defaultMessage: 'What the file holds' })}
        </summary>
        <p>
          {t(
            {
              id: 'siteImport.help.columns',
              defaultMessage:
                'One site per row, with a header row naming the columns: <code>{columns}</code>. Required: {required}. Coordinates in decimal degrees (WGS 84); the coordinate precision by its number or name, like 1 or “{example}”; dates like 2026-04-01. In GeoJSON, each feature is a Point and the other columns are its properties.',
            },
            {
              columns: IMPORT_COLUMNS.join(', '),
              required: REQUIRED_IMPORT_COLUMNS.join(', '),
              example: 'GPS (< 10 m)',
              code: (chunks) => <code>{chunks}</code>,
            },
          )}
        </p>
        <p>
          {t(
            {
              id: 'siteImport.help.updates',
              defaultMessage:
                'A site code the agency already has updates that site where the file differs; a new code adds a site. A column left out of the file leaves that field as it is. At most {rows, number} sites and {mb, number} MB a file.',
            },
            { rows: MAX_IMPORT_ROWS, mb: MAX_IMPORT_BYTES / (1024 * 1024) },
          )}
        </p>
      </details>

      {!online && (
        <p className="site-import-offline" role="note">
          {t({
            id: 'siteImport.offline',
            defaultMessage:
              'Importing needs a connection to the office server. Choose the file once the tablet is online.',
          })}
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
          {step.at === 'choose'
            ? t({ id: 'siteImport.choose', defaultMessage: 'Choose a CSV or GeoJSON file' })
            : t({ id: 'siteImport.chooseAnother', defaultMessage: 'Choose another file' })}
        </label>
      </div>

      {step.at === 'checking' && (
        <p role="status">
          {t(
            { id: 'siteImport.checking', defaultMessage: 'Checking {name}…' },
            { name: step.file.name },
          )}
        </p>
      )}
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
          <h2>
            {step.file
              ? t(
                  { id: 'siteImport.notImported', defaultMessage: '{name} was not imported' },
                  { name: step.file.name },
                )
              : t({
                  id: 'siteImport.fileNotImported',
                  defaultMessage: 'The file was not imported',
                })}
          </h2>
          <p>{failureWords(intl, step.failure, step.report)}</p>
          {step.report && step.report.errors.length > 0 && (
            <ImportProblems errors={step.report.errors} geojson={step.geojson} />
          )}
        </div>
      )}
    </section>
  );
}

function Counts({ report, done }: { report: ImportReport; done: boolean }) {
  const intl = useI18n();
  const t = intl.formatMessage;
  const n = (v: number) => intl.formatNumber(v);
  return (
    <dl className="facts site-import-counts">
      <dt>{t({ id: 'siteImport.counts.rows', defaultMessage: 'Rows' })}</dt>
      <dd>{n(report.rows)}</dd>
      <dt>
        {done
          ? t({ id: 'siteImport.counts.created', defaultMessage: 'Created' })
          : t({ id: 'siteImport.counts.toCreate', defaultMessage: 'To create' })}
      </dt>
      <dd>{n(report.created)}</dd>
      <dt>
        {done
          ? t({ id: 'siteImport.counts.updated', defaultMessage: 'Updated' })
          : t({ id: 'siteImport.counts.toUpdate', defaultMessage: 'To update' })}
      </dt>
      <dd>{n(report.updated)}</dd>
      <dt>{t({ id: 'siteImport.counts.unchanged', defaultMessage: 'Unchanged' })}</dt>
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
  const t = useI18n().formatMessage;
  const problems = report.errors.length;
  const badRows = new Set(report.errors.map((e) => e.row)).size;
  const work = report.created + report.updated;
  const title = t({ id: 'siteImport.checkOf', defaultMessage: 'Check of {name}' }, { name });
  return (
    <section className="site-import-result" aria-label={title}>
      <h2>{title}</h2>
      <Counts report={report} done={false} />
      {problems > 0 ? (
        <>
          <p className="site-import-problem-note" role="alert">
            {t(
              {
                id: 'siteImport.problemNote',
                defaultMessage:
                  '{problems, plural, one {# problem} other {# problems}} in {where, select, feature {{bad, plural, one {# feature} other {# features}}} other {{bad, plural, one {# row} other {# rows}}}}: nothing can be imported until {problems, plural, one {it is} other {they are}} fixed. Fix the file and choose it again.',
              },
              { problems, bad: badRows, where: geojson ? 'feature' : 'row' },
            )}
          </p>
          <ImportProblems errors={report.errors} geojson={geojson} />
        </>
      ) : work === 0 ? (
        <p>
          {t({
            id: 'siteImport.nothingToImport',
            defaultMessage:
              'Every site in the file is already in Trapline as it is: there is nothing to import.',
          })}
        </p>
      ) : (
        <div className="row wrap">
          <button
            type="button"
            className="button button-primary button-big"
            disabled={importing}
            onClick={onImport}
          >
            {importing
              ? t({ id: 'siteImport.importing', defaultMessage: 'Importing…' })
              : t(
                  {
                    id: 'siteImport.importButton',
                    defaultMessage: 'Import {count, plural, one {# site} other {# sites}}',
                  },
                  { count: work },
                )}
          </button>
        </div>
      )}
      {importing && (
        <p role="status">
          {t(
            {
              id: 'siteImport.importingNote',
              defaultMessage: 'Importing {name}: this takes up to half a minute for a large file.',
            },
            { name },
          )}
        </p>
      )}
    </section>
  );
}

function Imported({ name, report }: { name: string; report: ImportReport }) {
  const t = useI18n().formatMessage;
  return (
    <section
      className="site-import-result"
      aria-label={t({ id: 'siteImport.importOf', defaultMessage: 'Import of {name}' }, { name })}
    >
      <h2>{t({ id: 'siteImport.imported', defaultMessage: 'Imported {name}' }, { name })}</h2>
      <Counts report={report} done />
      <p role="status">
        {t(
          {
            id: 'siteImport.importedNote',
            defaultMessage:
              '{created, plural, one {# site} other {# sites}} created, {updated, number} updated, {unchanged, number} unchanged. Tablets get the new sites at their next pull; this tablet is getting them now.',
          },
          { created: report.created, updated: report.updated, unchanged: report.unchanged },
        )}
      </p>
      <Link href="/sites" className="button">
        {t({ id: 'siteImport.openSites', defaultMessage: 'Open Sites' })}
      </Link>
    </section>
  );
}
