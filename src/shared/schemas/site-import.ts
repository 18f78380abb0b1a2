import { z } from 'zod';
import { problemValues } from './error';

/**
 * Site import (contract §12): the columns of a CSV file (or the properties of a GeoJSON feature,
 * whose geometry gives latitude and longitude), the limits, and the answer. The rows themselves
 * are checked with the site schema (site.ts): an import row is a site body, nothing more.
 */
export const IMPORT_COLUMNS = [
  'code',
  'name',
  'latitude',
  'longitude',
  'coordinate_precision',
  'active_date',
  'deactive_date',
  'comments',
] as const;
export type ImportColumn = (typeof IMPORT_COLUMNS)[number];

/** A CSV header must name these; the others may be left out (an update then keeps their values). */
export const REQUIRED_IMPORT_COLUMNS = [
  'code',
  'name',
  'latitude',
  'longitude',
  'coordinate_precision',
] as const satisfies readonly ImportColumn[];

/** Rows (features) a file may hold. */
export const MAX_IMPORT_ROWS = 20_000;
/** Bytes a file may hold (10 MB, as MiB). */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;

export const IMPORT_MEDIA_TYPES = { csv: 'text/csv', geojson: 'application/geo+json' } as const;

/** Why a row (or the file) cannot be imported. */
export const IMPORT_ERROR_CODES = [
  // A field fails the site schema or a site rule (the message says which and why).
  'validation_failed',
  // The file holds the same code on an earlier row.
  'duplicate_code',
  // 000000 belongs to the agency's Zero Site.
  'reserved_code',
  // A coordinate precision that is no id or name of the lookup list.
  'unknown_lookup',
  // A GeoJSON feature whose geometry is not a Point.
  'not_a_point',
  // The header row lacks a required column, or names one the import does not know.
  'missing_column',
  'unknown_column',
  // A CSV row with more or fewer cells than the header.
  'wrong_column_count',
  // The file as a whole: empty, not UTF-8, unreadable CSV or GeoJSON.
  'empty_file',
  'not_utf8',
  'malformed_file',
  // The records service refused a write after every row had passed (see the error's message).
  'write_failed',
] as const;
export type ImportErrorCode = (typeof IMPORT_ERROR_CODES)[number];

/**
 * The sentences of a `validation_failed` or `write_failed` row that the BFF words itself, each
 * with the values it names. A field the shared site schema refused keeps no `problem`: its
 * `message` is the schema's own rule, which the client translates by its wording.
 */
export const IMPORT_PROBLEMS = [
  // {column}: a required cell is empty.
  'required',
  // {column, value, example}: a coordinate that is no decimal number.
  'not_a_number',
  // {code, padded}: fewer than 6 digits, as a spreadsheet drops leading zeros.
  'code_short',
  // {code}: not 6 digits.
  'code_digits',
  // {latitude, longitude}: the pair as the file gave it, which looks swapped.
  'coordinates_swapped',
  // {written, reason?}: the records service refused the row after `written` sites were written.
  'write_refused',
  // {written}: the sign-in expired while the rows were written.
  'write_reauth',
] as const;
export type ImportProblem = (typeof IMPORT_PROBLEMS)[number];

/**
 * One problem. `row` is the row as a spreadsheet numbers it (the header is row 1, the first site
 * row 2; a quoted cell holding line breaks stays one row), or the feature's position (1-based) in
 * a GeoJSON file. `field` is a column name, `geometry`, or `(file)` for the file as a whole.
 */
export const importError = z.object({
  row: z.number().int().nonnegative(),
  field: z.string(),
  code: z.string(),
  message: z.string(),
  /**
   * Which sentence, where one `code` has several (IMPORT_PROBLEMS), and what it names (the
   * earlier row of a duplicate code, the value that is not a number): the client says it from
   * its own catalogue (issue 38). Additive: `message` stays the English sentence.
   */
  problem: z.string().optional(),
  values: problemValues.optional(),
});
export type ImportError = z.infer<typeof importError>;

/**
 * The answer to POST /api/import/sites. A dry run says what an import would do; an import with
 * any error writes nothing and says so (created = updated = 0).
 */
export const importReport = z.object({
  rows: z.number().int().nonnegative(),
  created: z.number().int().nonnegative(),
  updated: z.number().int().nonnegative(),
  unchanged: z.number().int().nonnegative(),
  errors: z.array(importError),
  dry_run: z.boolean().optional(),
});
export type ImportReport = z.infer<typeof importReport>;
