import type { HistoryRow } from '#shared/schemas/history';

/** What a spreadsheet would run as a formula (OWASP CSV injection): kept as text with a `'`. */
const FORMULA_START = /^[=+\-@\t\r]/;

function cell(value: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const RECORD_WORDS: Record<HistoryRow['entity'], string> = {
  site: 'Site',
  collection: 'Collection',
  pool: 'Pool',
  test: 'Pool test',
};

/**
 * The agency's changes as CSV, one line a change of a record: when (UTC, as the server wrote it),
 * who, what was done to which record, what changed in words and as the server's JSON (so a
 * state program can read the exact values). CRLF line ends and a BOM, as spreadsheets expect.
 */
export function historyCsv(rows: HistoryRow[], describe: (row: HistoryRow) => string[]): string {
  const head = ['at', 'user', 'action', 'record_type', 'record_id', 'changes', 'changes_json'];
  const lines = rows.map((r) =>
    [
      r.at,
      r.user.full_name ?? '',
      r.action,
      RECORD_WORDS[r.entity],
      String(r.record),
      [r.action === 'create' ? 'Created' : null, ...describe(r)].filter(Boolean).join('; '),
      JSON.stringify(r.changes),
    ]
      .map(cell)
      .join(','),
  );
  return `\uFEFF${[head.join(','), ...lines].join('\r\n')}\r\n`;
}
