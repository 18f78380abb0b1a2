import { CsvError, parse } from 'csv-parse/sync';
import {
  IMPORT_COLUMNS,
  REQUIRED_IMPORT_COLUMNS,
  type ImportColumn,
  type ImportError,
} from '#shared/schemas/site-import';
import { fileError, type ImportRow, type ReadRows } from './import-rows';

const KNOWN = new Set<string>(IMPORT_COLUMNS);

/** "Active Date " → "active_date": the header as people type it in a spreadsheet. */
const columnName = (cell: string) =>
  cell
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/**
 * CSV text (BOM already removed) → rows. RFC 4180 as spreadsheets write it: quoted cells may hold
 * commas, quotes ("") and line breaks; lines end in \n or \r\n; a stray quote inside an unquoted
 * cell is kept as a character. The first row is the header; blank rows are skipped but still
 * counted, so `row` is the number a spreadsheet shows beside the row.
 */
export function readCsvRows(text: string): ReadRows {
  let records: string[][];
  try {
    records = parse(text, { relax_quotes: true, relax_column_count: true, bom: true });
  } catch (err) {
    if (err instanceof CsvError) {
      const line = (err as CsvError & { lines?: number }).lines ?? 0;
      return {
        rows: [],
        count: 0,
        errors: [
          fileError(
            'malformed_file',
            `The file cannot be read as CSV near line ${line}: ${csvProblem(err)}`,
            line,
          ),
        ],
      };
    }
    throw err;
  }
  const blank = (r: string[]) => r.every((c) => c.trim() === '');
  const headerAt = records.findIndex((r) => !blank(r));
  if (headerAt < 0) {
    return {
      rows: [],
      count: 0,
      errors: [fileError('empty_file', 'The file is empty: it has no header row and no sites', 1)],
    };
  }
  const header = records[headerAt].map(columnName);
  const headerRow = headerAt + 1;
  const errors = headerErrors(header, records[headerAt], headerRow);
  if (errors.length) return { rows: [], count: 0, errors };

  const rows: ImportRow[] = [];
  let count = 0;
  for (let i = headerAt + 1; i < records.length; i++) {
    const cells = records[i];
    if (blank(cells)) continue;
    count += 1;
    const row = i + 1;
    if (cells.length !== header.length) {
      errors.push({
        row,
        field: '(row)',
        code: 'wrong_column_count',
        message: `Row ${row} has ${cells.length} cells but the header has ${header.length} columns: a comma in a cell needs the cell in double quotes`,
        values: { cells: cells.length, columns: header.length },
      });
      continue;
    }
    const values: ImportRow['values'] = {};
    header.forEach((col, j) => {
      values[col as ImportColumn] = cells[j];
    });
    rows.push({ row, values });
  }
  return { rows, errors, count };
}

function headerErrors(header: string[], raw: string[], row: number): ImportError[] {
  const errors: ImportError[] = [];
  const looksLikeData = !header.some((c) => KNOWN.has(c));
  for (const col of REQUIRED_IMPORT_COLUMNS) {
    if (header.includes(col)) continue;
    errors.push({
      row,
      field: col,
      code: 'missing_column',
      message: looksLikeData
        ? `The first row must be a header naming the columns (${IMPORT_COLUMNS.join(', ')}); it reads "${preview(raw)}"`
        : `The header has no "${col}" column (the columns are ${IMPORT_COLUMNS.join(', ')})`,
    });
  }
  if (looksLikeData) return errors;
  header.forEach((col, j) => {
    if (!KNOWN.has(col)) {
      errors.push({
        row,
        field: raw[j].trim() || `(column ${j + 1})`,
        code: 'unknown_column',
        message: `Unknown column "${raw[j].trim()}": the columns are ${IMPORT_COLUMNS.join(', ')}`,
      });
    } else if (header.indexOf(col) !== j) {
      errors.push({
        row,
        field: col,
        code: 'unknown_column',
        message: `The header names "${col}" twice`,
      });
    }
  });
  return errors;
}

function preview(cells: string[]): string {
  const s = cells.join(',');
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

function csvProblem(err: CsvError): string {
  if (err.code === 'CSV_QUOTE_NOT_CLOSED') return 'a quoted cell is never closed (a " is missing)';
  return err.message.replace(/^Invalid Record Length: |^Invalid Opening Quote: /, '');
}
