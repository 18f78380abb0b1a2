import { useState } from 'react';
import type { ImportError } from '#shared/schemas/site-import';
import { useI18n } from '../../lib/i18n';
import { problemWords } from './problem-words';

/** Problems shown at first; the rest behind a button (a file can list thousands). */
const FIRST = 200;

/** Every problem of a file, as a table: its row (as a spreadsheet numbers it), column and why. */
export function ImportProblems({ errors, geojson }: { errors: ImportError[]; geojson: boolean }) {
  const intl = useI18n();
  const t = intl.formatMessage;
  const [all, setAll] = useState(false);
  const shown = all ? errors : errors.slice(0, FIRST);
  return (
    <div className="table-scroll">
      <table className="table site-import-problems">
        <caption>
          {t({ id: 'siteImport.problems.caption', defaultMessage: 'Problems in the file' })}
        </caption>
        <thead>
          <tr>
            <th scope="col">
              {geojson
                ? t({ id: 'siteImport.problems.feature', defaultMessage: 'Feature' })
                : t({ id: 'siteImport.problems.row', defaultMessage: 'Row' })}
            </th>
            <th scope="col">{t({ id: 'siteImport.problems.column', defaultMessage: 'Column' })}</th>
            <th scope="col">
              {t({ id: 'siteImport.problems.problem', defaultMessage: 'Problem' })}
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.map((e, i) => (
            <tr key={`${e.row}-${e.field}-${i}`}>
              <td>{e.row === 0 ? '—' : intl.formatNumber(e.row)}</td>
              <td>
                {e.field === '(file)'
                  ? t({ id: 'siteImport.problems.wholeFile', defaultMessage: 'whole file' })
                  : e.field === '(row)'
                    ? t({ id: 'siteImport.problems.wholeRow', defaultMessage: 'whole row' })
                    : e.field}
              </td>
              <td>{problemWords(intl, e)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {!all && errors.length > FIRST && (
        <button type="button" className="button" onClick={() => setAll(true)}>
          {t(
            {
              id: 'siteImport.problems.showAll',
              defaultMessage: 'Show all {count, number} problems',
            },
            { count: errors.length },
          )}
        </button>
      )}
    </div>
  );
}
