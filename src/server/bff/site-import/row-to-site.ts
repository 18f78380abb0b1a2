import type { z } from 'zod';
import { siteCreate, type SiteCreate } from '#shared/schemas/site';
import type { ImportError, ImportProblem } from '#shared/schemas/site-import';
import type { ImportRow } from './import-rows';

export type PrecisionLookup = ReadonlyArray<{ id: number; name: string }>;

/** The optional columns: present in the file → written (an empty cell clears the field). */
export const OPTIONAL_COLUMNS = ['active_date', 'deactive_date', 'comments'] as const;

/** A row that passed the site schema: the create body and which optional columns it carries. */
export type CheckedRow = {
  row: number;
  body: SiteCreate;
  /** Optional columns the file has: only these are compared and written on an update. */
  columns: ReadonlyArray<(typeof OPTIONAL_COLUMNS)[number]>;
};

const blank = (v: unknown) =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/**
 * One import row → a site create body checked with the shared site schema (the same schema the
 * records service reads a POST with), or every problem of the row. Latitude and longitude become
 * the Point `[longitude, latitude]`; a coordinate precision may be given by id or by name.
 */
export function rowToSite(
  input: ImportRow,
  precisions: PrecisionLookup,
): { site: CheckedRow } | { errors: ImportError[] } {
  const { row, values } = input;
  const errors: ImportError[] = [];
  const fail: Fail = (field, code, message, said) =>
    errors.push({ row, field, code, message, ...said });

  const code = blank(values.code) ? undefined : String(values.code).trim();
  const lon = coordinate(values.longitude, 'longitude', fail);
  const lat = coordinate(values.latitude, 'latitude', fail);
  const precision = precisionId(values.coordinate_precision, precisions, fail);

  const body: Record<string, unknown> = {
    code,
    name: blank(values.name) ? undefined : String(values.name),
    coordinate_precision: precision,
    shape: { type: 'Point', coordinates: [lon ?? 0, lat ?? 0] },
  };
  const columns = OPTIONAL_COLUMNS.filter((c) => c in values);
  for (const col of columns) {
    const v = values[col];
    body[col] = blank(v) ? null : col === 'comments' ? String(v) : String(v).trim();
  }

  const parsed = siteCreate.safeParse(body);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldOf(issue, lat, lon);
      // Already said: a missing or non-numeric coordinate, an unknown precision.
      if (errors.some((e) => e.field === field)) continue;
      fail(field, 'validation_failed', ...messageOf(issue, field, code, body));
    }
  }
  if (errors.length) return { errors };
  return { site: { row, body: parsed.data!, columns } };
}

function coordinate(v: unknown, field: 'latitude' | 'longitude', fail: Fail): number | undefined {
  if (blank(v)) {
    fail(field, 'validation_failed', `${cap(field)} is required`, required(field));
    return undefined;
  }
  const n =
    typeof v === 'number' ? v : typeof v === 'string' && NUMBER.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isFinite(n)) {
    const example = field === 'latitude' ? '38.58' : '-121.49';
    fail(
      field,
      'validation_failed',
      `${cap(field)} "${String(v)}" is not a number: write decimal degrees, like ${example}`,
      { problem: 'not_a_number', values: { column: field, value: String(v), example } },
    );
    return undefined;
  }
  return n;
}

function precisionId(v: unknown, precisions: PrecisionLookup, fail: Fail): number | undefined {
  if (blank(v)) {
    fail(
      'coordinate_precision',
      'validation_failed',
      'Coordinate precision is required',
      required('coordinate_precision'),
    );
    return undefined;
  }
  const s = String(v).trim();
  const found = /^\d+$/.test(s)
    ? precisions.find((p) => p.id === Number(s))
    : precisions.find((p) => p.name.trim().toLowerCase() === s.toLowerCase());
  if (!found) {
    fail(
      'coordinate_precision',
      'unknown_lookup',
      `Unknown coordinate precision "${s}": use one of ${precisions.map((p) => `${p.id} "${p.name}"`).join(', ')}`,
      { values: { value: s, choices: precisions.map((p) => `${p.id} “${p.name}”`) } },
    );
    return undefined;
  }
  return found.id;
}

/** The import column a schema issue is about (`shape.coordinates.1` is the latitude). */
function fieldOf(issue: z.core.$ZodIssue, lat?: number, lon?: number): string {
  const [head, second, third] = issue.path.map(String);
  if (head !== 'shape') return head ?? '(row)';
  if (second === 'coordinates' && third === '0') return 'longitude';
  if (second === 'coordinates' && third === '1') return 'latitude';
  // The pair as a whole (out of range, or swapped): name the one that is out of its range.
  return lat !== undefined && Math.abs(lat) > 90
    ? 'latitude'
    : lon !== undefined && Math.abs(lon) > 180
      ? 'longitude'
      : 'latitude';
}

/**
 * The English sentence of a schema issue and, where the BFF words it, its problem and values.
 * An issue the shared schema words itself keeps only its message (the client knows its rules).
 */
function messageOf(
  issue: z.core.$ZodIssue,
  field: string,
  code: string | undefined,
  body: Record<string, unknown>,
): [message: string, said?: Said] {
  if (body[field] === undefined && field !== 'latitude' && field !== 'longitude') {
    return [`${cap(field.replace(/_/g, ' '))} is required`, required(field)];
  }
  if (field === 'code' && code && /^\d{1,5}$/.test(code)) {
    const padded = code.padStart(6, '0');
    return [
      `Site code "${code}" has fewer than 6 digits: spreadsheets drop leading zeros, so format the column as text (e.g. ${padded})`,
      { problem: 'code_short', values: { code, padded } },
    ];
  }
  if (field === 'code') {
    return [
      `Site code "${code}" must be exactly 6 digits`,
      { problem: 'code_digits', values: { code: code ?? '' } },
    ];
  }
  // The schema words it for an API body ([longitude, latitude]); a file has two columns.
  const c = (body.shape as { coordinates: [number, number] }).coordinates;
  if (/swapped/.test(issue.message)) {
    return [
      `Latitude ${c[1]} is outside -90..90: the latitude and longitude columns look swapped (latitude ${c[0]}, longitude ${c[1]}?)`,
      // As the file gave them: the client suggests the pair the other way round.
      { problem: 'coordinates_swapped', values: { latitude: c[1], longitude: c[0] } },
    ];
  }
  return [issue.message];
}

/** A sentence's stable code and values (issue 38), beside the English message. */
type Said = Pick<ImportError, 'problem' | 'values'> & { problem?: ImportProblem };
type Fail = (field: string, code: ImportError['code'], message: string, said?: Said) => void;

const required = (column: string): Said => ({ problem: 'required', values: { column } });

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
