import type { IntlShape } from 'react-intl';
import { RECORD_NOTICES } from './record-notices';
import { RECORD_RULES } from './record-rules';
import { translateShared } from './shared-messages';

/**
 * Every English sentence the app translates by its wording: the record rules first (the shared
 * schemas' field rules), then the place checks and sync notices. A text not listed passes
 * through as written.
 */
const RULES = [...RECORD_RULES, ...RECORD_NOTICES];

/**
 * `text` (a rule's message from src/shared or the server, shown beside a field) in the person's
 * language where it is one of the rules above or a shared sign-in message; else as written.
 */
export function translateRule(intl: IntlShape, text: string): string;
export function translateRule(intl: IntlShape, text: string | null): string | null;
export function translateRule(intl: IntlShape, text: string | null): string | null {
  if (text === null) return null;
  // The records service's summary of a refusal: "num_count: A pool holds at least 1".
  const summary = /^(?<path>[a-z_]+(?:\.[a-z0-9_]+)*): (?<rest>.+)$/.exec(text);
  if (summary?.groups) {
    return intl.formatMessage(
      { id: 'rules.fieldSummary', defaultMessage: '{field}: {problem}' },
      {
        field: fieldIn(intl, summary.groups.path),
        problem: translateRule(intl, summary.groups.rest),
      },
    );
  }
  for (const rule of RULES) {
    const found = rule.pattern.exec(text);
    if (!found) continue;
    const values = Object.fromEntries(
      // A group that matched nothing (an optional part left out) is said as 'no' in a select.
      (rule.values ?? []).map((name) => [name, found.groups?.[name] ?? 'no']),
    );
    return intl.formatMessage(rule.message, values);
  }
  return translateShared(intl, text) ?? text;
}

/**
 * A record field's path as the server names it (`num_count`, `arthropods.0.sex`), in the
 * person's words where it is one of the field screens' fields; else the path as written.
 */
export function fieldIn(intl: IntlShape, path: string): string {
  const row = /^arthropods\.(?<row>\d+)\.(?<field>\w+)$/.exec(path);
  const field = row?.groups ? row.groups.field : path;
  const named = intl.formatMessage(
    {
      id: 'rules.fieldName',
      defaultMessage:
        '{field, select, code {Site code} name {Site name} num_count {Count} species {Species} sex {Sex} trap {Trap type} num_trap {Number of traps} trap_nights {Trap nights} collection_date {Collection date} site {Site} location {Trap location} lures {Lures} arthropods {Abundance} method {Test method} target {Target} status {Result} test_date {Test date} test_agency {Testing agency} value {Value (Ct)} comments {Comments} coordinate_precision {Coordinate precision} shape {Coordinates} postal_code {Postal code} elevation {Elevation} other {{field}}}',
    },
    { field: field.replace(/\W/g, '_') },
  );
  return row?.groups
    ? intl.formatMessage(
        { id: 'rules.fieldInRow', defaultMessage: '{field} (row {row})' },
        { field: named, row: Number(row.groups.row) + 1 },
      )
    : named;
}
