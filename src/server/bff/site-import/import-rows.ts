import type { ImportColumn, ImportError } from '#shared/schemas/site-import';

/**
 * One row of an import file before it is checked: the values as the file gave them (CSV cells
 * are strings; GeoJSON properties may be numbers or null), keyed by import column. A column the
 * file does not have is absent: an update then leaves that field as it is.
 */
export type ImportRow = {
  /** Spreadsheet row (header = 1) of a CSV file, or the feature's 1-based position. */
  row: number;
  values: Partial<Record<ImportColumn, unknown>>;
};

/** A file read into rows, or the problems that stop it being read at all. */
export type ReadRows = {
  rows: ImportRow[];
  errors: ImportError[];
  /** Site rows (features) the file holds, the unreadable ones included. */
  count: number;
};

/** An error about the file as a whole (row 0 when no row can be named). */
export function fileError(
  code: ImportError['code'],
  message: string,
  row = 0,
  field = '(file)',
): ImportError {
  return { row, field, code, message };
}
