import type { Cell, Report } from '#shared/reports';
import { guardFormula } from '../csv-formula-guard';

/**
 * The UTF-8 byte-order mark every CSV file starts with: without it Excel reads the file in the
 * machine's legacy code page and a site named "Peña" shows as "PeÃ±a". Scripts see it before
 * the first header name (README "CSV files and the byte-order mark" says how each tool skips it).
 */
export const CSV_BOM = '\uFEFF';

/**
 * A report as CSV (RFC 4180): the columns as the header, one line per row, CRLF line ends. Empty
 * for null. A text cell is quoted when it holds a comma, quote, line break, semicolon or tab; one
 * that starts with = + - @ (or a tab or carriage return) is prefixed with ' so a spreadsheet
 * shows it as text instead of running it as a formula. Numbers are written with R's 15
 * significant digits, as vectorsurvR's write.csv gives them: a rounded -15.56 held as
 * -15.559999999999999 is written -15.56 (a negative Delta stays a number).
 */
export function reportCsv(report: Report): string {
  return [
    csvLine(report.columns),
    ...report.rows.map((row) => csvLine(report.columns.map((c) => row[c]))),
  ].join('');
}

/** One CSV line of cells, with its CRLF. */
export function csvLine(cells: readonly (Cell | undefined)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

export function csvCell(value: Cell | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') {
    return Number.isFinite(value) ? String(Number(value.toPrecision(15))) : '';
  }
  const text = guardFormula(value);
  // A semicolon or tab is quoted too: a spreadsheet that also splits on them (LibreOffice offers
  // comma, semicolon and tab at once) would otherwise start a cell after it, where a formula runs.
  return /[",;\t\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
