import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RawIntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignedInApp } from '../../../src/client/app/signed-in-app';
import { dateIn } from '../../../src/client/lib/i18n';
import { english, makeIntl } from '../../../src/client/lib/i18n';
import { IMPORT_COLUMNS } from '../../../src/shared/schemas/site-import';
import type { SessionInfo } from '../../../src/shared';
import { LOOKUPS } from '../lookups-fixture';
import { pseudoLocalise, untranslatedTexts } from './pseudo-locale';

/**
 * The office screens (Office people and tokens, Changes since, Site import with its problems
 * table, Reports with each report and the exports), drawn in the pseudo-locale inside the
 * signed-in app: a text on screen with no pseudo mark came from no catalogue. The server's
 * answers are fixed documents shaped as the BFF answers (the screens' words are under test, not
 * the server); `data` lists what is the agency's data (names, codes, file names, lookups).
 */
const identity: SessionInfo = {
  user: {
    id: 7,
    username: `pseudo-office-${Math.random().toString(36).slice(2)}`,
    name: 'Sam',
    role: 'manager',
  },
  agency: { id: 1, name: 'Demo Vector Control' },
  expiresAt: '2099-01-01T00:00:00.000Z',
};
const noop = () => undefined;
const season = new Date().getFullYear();

const PEOPLE = [
  {
    id: 7,
    username: identity.user.username,
    full_name: 'Sam Peña',
    role: 'manager',
    active: true,
    add_date: '2026-01-05T00:00:00.000Z',
    updated: '2026-01-05T00:00:00.000Z',
    last_login: '2026-07-14T15:00:00.000Z',
  },
  {
    id: 8,
    username: 'tech-ana',
    full_name: 'Ana Ruiz',
    role: 'user',
    active: false,
    add_date: '2026-01-05T00:00:00.000Z',
    updated: '2026-01-05T00:00:00.000Z',
    last_login: null,
  },
];
const TOKENS = [
  {
    id: 3,
    created_at: '2026-03-01T10:00:00.000Z',
    created_by: { id: 7, username: identity.user.username, full_name: 'Sam Peña' },
  },
];
const HISTORY = [
  {
    id: 1,
    at: '2026-07-15T16:20:00.000Z',
    user: { id: 7, full_name: 'Sam Peña' },
    action: 'update',
    entity: 'collection',
    record: 12,
    changes: {
      arthropods: [
        [{ species: 1, sex: 4, num_count: 41 }],
        [
          { species: 1, sex: 4, num_count: 14 },
          { species: 2, sex: 2, num_count: 3 },
        ],
      ],
      lures: [[], [1]],
      trap: [1, 2],
      comments: [null, 'Wind'],
      trap_problem_bit: [false, true],
    },
  },
  {
    id: 2,
    at: '2026-07-15T17:00:00.000Z',
    user: { id: 8, full_name: null },
    action: 'delete',
    entity: 'test',
    record: 4,
    changes: {},
  },
];
const IMPORT_REPORT = {
  rows: 4,
  created: 1,
  updated: 1,
  unchanged: 0,
  dry_run: true,
  errors: [
    {
      row: 3,
      field: 'code',
      code: 'duplicate_code',
      message: 'Site code 104233 is also on row 2',
      values: { code: '104233', first: 2 },
    },
    {
      row: 4,
      field: '(row)',
      code: 'wrong_column_count',
      message: 'Row 4 has 3 cells',
      values: { cells: 3, columns: 8 },
    },
    {
      row: 4,
      field: 'latitude',
      code: 'validation_failed',
      message: 'Latitude "N 38" is not a number: write decimal degrees, like 38.58',
      problem: 'not_a_number',
      values: { column: 'latitude', value: 'N 38', example: '38.58' },
    },
    { row: 5, field: 'geometry', code: 'not_a_point', message: 'Feature 5 is a LineString' },
    { row: 0, field: '(file)', code: 'not_utf8', message: 'The file is not UTF-8 text' },
    { row: 1, field: 'colour', code: 'unknown_column', message: 'Unknown column "colour"' },
  ],
};
const week = (over: Record<string, unknown>) => ({
  Year: season,
  Week: 27,
  Species: 'Cx tarsalis',
  Count: 38,
  TrapEvents: 3,
  ...over,
});
const REPORTS: Record<string, Record<string, unknown>[]> = {
  'abundance-anomaly': [
    week({ Abundance: 12.6667, FiveYearAvg: 15, YearsInAverage: '2024,2025', Delta: -15.56 }),
    week({ Week: 28, Abundance: 3.5, FiveYearAvg: null, YearsInAverage: null, Delta: null }),
  ],
  abundance: [week({ Abundance: 12.6667 }), week({ Week: 28, Abundance: 3.5 })],
  'infection-rate': [
    week({ InfectionRate: 25.7692, LowerCI: 0, UpperCI: 77.2106 }),
    week({ Week: 28, InfectionRate: 0, LowerCI: 0, UpperCI: 40.1 }),
  ],
  'vector-index': [
    week({
      Abundance: 14.3333,
      InfectionRate: 25.7692,
      LowerCI: 0,
      UpperCI: 77.2106,
      VectorIndex: 369.3584,
      CDCVectorIndex: 0.4412,
    }),
  ],
};

/** The BFF as these screens read it; anything else is an empty list or a 404. */
async function bff(input: RequestInfo | URL): Promise<Response> {
  const url = new URL(String(input instanceof Request ? input.url : input), 'http://app.test');
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', date: new Date().toUTCString() },
    });
  const path = url.pathname;
  if (path === '/api/lookups') return json(LOOKUPS);
  if (path === '/api/v1/user') return json({ rows: PEOPLE, count: PEOPLE.length });
  if (path === '/api/v1/agency/token') return json({ rows: TOKENS, count: TOKENS.length });
  if (path === '/api/v1/history') return json({ rows: HISTORY, count: 240 });
  if (path === '/api/import/sites') return json(IMPORT_REPORT);
  if (path === '/api/export/summary')
    return json({ sites: 1234, collections: 1, pools: 56, pool_tests: 7 });
  const report = /^\/api\/reports\/(.+)$/.exec(path);
  if (report && REPORTS[report[1]])
    return json({ rows: REPORTS[report[1]], count: REPORTS[report[1]].length });
  if (path.startsWith('/api/v1/')) return json({ rows: [], count: 0 });
  return json({ error: { code: 'not_found', message: 'Not found' } }, 404);
}

const signedInAt = (path: string) => {
  window.history.replaceState(null, '', path);
  return <SignedInApp identity={identity} onIdentity={noop} onSignOut={noop} />;
};

const intl = makeIntl('en-XA', pseudoLocalise(english));

/** The agency's data on these screens, which no catalogue translates. */
const data = [
  'Trapline',
  identity.user.username,
  identity.agency.name,
  'Sam Peña',
  'Ana Ruiz',
  'tech-ana',
  'Cx tarsalis',
  'Cx pipiens',
  'Culex tarsalis',
  'Culex pipiens',
  'Culex quinquefasciatus',
  'Aedes aegypti',
  'Cx quinquefasciatus',
  'Ae aegypti',
  'F-Mixed',
  'male',
  'GRVD',
  'CO2',
  'Gravid trap',
  'CO2 trap',
  'Wind',
  'CO2 (CO2 trap)',
  'GRVD (Gravid trap)',
  'WNV',
  'SLEV',
  'WEEV',
  'MLE',
  'MIR',
  'MMWR',
  'sites.csv',
  'code',
  'geometry',
  'colour',
  'vectorsurvR',
  'West Nile virus',
  'St. Louis encephalitis virus',
  // The CSV's column names (vectorsurvR's), shown as the table headers' tooltips on purpose.
  ...['Year', 'Week', 'Species', 'Count', 'TrapEvents', 'Abundance', 'FiveYearAvg'],
  ...['YearsInAverage', 'Delta', 'InfectionRate', 'LowerCI, UpperCI', 'VectorIndex'],
  'CDCVectorIndex',
  // The import file's column names, as the file must spell them (and each in a Column cell).
  IMPORT_COLUMNS.join(', '),
  ...IMPORT_COLUMNS,
  // Dates through Intl (the pseudo-locale formats as English).
  ...HISTORY.map((r) => dateIn(intl, r.at)),
]
  // Longest first: "CO2 (CO2 trap)" is taken out before "CO2".
  .sort((a, b) => b.length - a.length);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** Draws `path` in the pseudo-locale and waits until `ready` (a text of the screen's data) shows. */
async function drawAt(path: string, ready: RegExp | string) {
  vi.stubGlobal('fetch', vi.fn(bff));
  const drawn = render(<RawIntlProvider value={intl}>{signedInAt(path)}</RawIntlProvider>);
  await screen.findAllByText(ready, {}, { timeout: 15_000 });
  return drawn;
}

/** Lets the signed-in app's start-up sync end before the unmount closes its database. */
const settle = () => new Promise((r) => setTimeout(r, 1_500));

describe('the pseudo-locale on the office screens', () => {
  it('Office: people, their roles and last sign-in, agency tokens', async () => {
    await drawAt('/office', 'Ana Ruiz');
    await screen.findAllByText(/Ŧǿķḗƞ 3/);
    expect(untranslatedTexts(document.body, data).join(' | ')).toBe('');
    await settle();
  });

  it('Changes since: rows of changes in words, paging', async () => {
    await drawAt('/office/history', /Wind/);
    expect(untranslatedTexts(document.body, data).join(' | ')).toBe('');
    await settle();
  });

  it('Site import: the check of a file with a problems table', async () => {
    const { container } = await drawAt('/office/import', /ĪḿƥǿřŧȘīŧḗş|Īḿƥǿřŧ şīŧḗş/);
    const input = container.querySelector('input[type="file"]') as HTMLInputElement;
    await userEvent.upload(
      input,
      new File(['code,name\n104233,A\n'], 'sites.csv', { type: 'text/csv' }),
    );
    await screen.findByRole('table', {}, { timeout: 10_000 });
    expect(untranslatedTexts(document.body, data).join(' | ')).toBe('');
    await settle();
  });

  it.each(Object.keys(REPORTS))(
    'Reports: %s, with its chart, table and the exports',
    async (kind) => {
      const years = kind === 'abundance-anomaly' ? '' : `&year=${season}`;
      await drawAt(`/reports?report=${kind}&interval=Week${years}`, /Ƈǿḿƥŭŧḗḓ/);
      await screen.findByTestId('report-chart', {}, { timeout: 10_000 });
      await screen.findAllByText(/1,234/);
      expect(untranslatedTexts(document.body, [...data, String(season)]).join(' | ')).toBe('');
      await settle();
    },
  );
});
