import { useState } from 'react';
import type { ImportError } from '#shared/schemas/site-import';

/** Problems shown at first; the rest behind a button (a file can list thousands). */
const FIRST = 200;

/** Every problem of a file, as a table: its row (as a spreadsheet numbers it), column and why. */
export function ImportProblems({ errors, geojson }: { errors: ImportError[]; geojson: boolean }) {
  const [all, setAll] = useState(false);
  const shown = all ? errors : errors.slice(0, FIRST);
  return (
    <div className="table-scroll">
      <table className="table site-import-problems">
        <caption>Problems in the file</caption>
        <thead>
          <tr>
            <th scope="col">{geojson ? 'Feature' : 'Row'}</th>
            <th scope="col">Column</th>
            <th scope="col">Problem</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((e, i) => (
            <tr key={`${e.row}-${e.field}-${i}`}>
              <td>{e.row === 0 ? '—' : e.row}</td>
              <td>
                {e.field === '(file)' ? 'whole file' : e.field === '(row)' ? 'whole row' : e.field}
              </td>
              <td>{e.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {!all && errors.length > FIRST && (
        <button type="button" className="button" onClick={() => setAll(true)}>
          Show all {errors.length.toLocaleString('en-US')} problems
        </button>
      )}
    </div>
  );
}
