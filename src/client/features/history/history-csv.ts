import type { IntlShape } from 'react-intl';
import type { HistoryRow } from '#shared/schemas/history';
import { englishIntl } from '../../lib/i18n';

/** What a spreadsheet would run as a formula (OWASP CSV injection): kept as text with a `'`. */
const FORMULA_START = /^[=+\-@\t\r]/;

function cell(value: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** "Site", "Collection", "Pool", "Pool test": what kind of record a row is about. */
export function recordWord(intl: IntlShape, entity: HistoryRow['entity']): string {
  const t = intl.formatMessage;
  switch (entity) {
    case 'site':
      return t({ id: 'history.field.site', defaultMessage: 'Site' });
    case 'collection':
      return t({ id: 'history.field.collection', defaultMessage: 'Collection' });
    case 'pool':
      return t({ id: 'history.field.pool', defaultMessage: 'Pool' });
    case 'test':
      return t({ id: 'history.record.test', defaultMessage: 'Pool test' });
  }
}

/**
 * The agency's changes as CSV, one line a change of a record: when (UTC, as the server wrote it),
 * who, what was done to which record, what changed in words and as the server's JSON (so a
 * state program can read the exact values). CRLF line ends and a BOM, as spreadsheets expect.
 */
export function historyCsv(
  rows: HistoryRow[],
  describe: (row: HistoryRow) => string[],
  intl: IntlShape = englishIntl(),
): string {
  const head = ['at', 'user', 'action', 'record_type', 'record_id', 'changes', 'changes_json'];
  const lines = rows.map((r) =>
    [
      r.at,
      r.user.full_name ?? '',
      r.action,
      recordWord(intl, r.entity),
      String(r.record),
      [
        r.action === 'create'
          ? intl.formatMessage({ id: 'history.action.create', defaultMessage: 'Created' })
          : null,
        ...describe(r),
      ]
        .filter(Boolean)
        .join('; '),
      JSON.stringify(r.changes),
    ]
      .map(cell)
      .join(','),
  );
  return `\uFEFF${[head.join(','), ...lines].join('\r\n')}\r\n`;
}
