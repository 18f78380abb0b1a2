import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ExportPanel } from '../../../../src/client/features/exports/export-panel';
import { startMainOnMigratedDir, type MainOnMigratedDir } from '../../../helpers/spawned-main';

/**
 * The panel against the real BFF and records service (`npm start` as a child process: the server
 * modules cannot load in this jsdom environment). The page's same-origin fetch is sent to the
 * BFF's address with what a browser adds by itself (the session cookie, Origin); nothing is
 * answered in the test's place.
 */
const PASSWORD = 'export-panel-test-password';
let server: MainOnMigratedDir | undefined;
let base: string;
let cookie: string;
const nodeFetch = globalThis.fetch;
const saved: Blob[] = [];

function browserFetch(to: string) {
  return (input: RequestInfo | URL, init: RequestInit = {}) =>
    nodeFetch(`${to}${String(input)}`, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), cookie, origin: to },
    });
}

beforeAll(async () => {
  server = await startMainOnMigratedDir('trapline-export-panel-', PASSWORD);
  base = server.url;
  const signIn = await nodeFetch(`${base}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf': '1', origin: base },
    body: JSON.stringify({ username: 'demo-manager', password: PASSWORD }),
  });
  expect(signIn.status).toBe(200);
  cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(';', 1)[0])
    .join('; ');
  // Species 1 and 2 (Culex tarsalis, pipiens), sex 1 (F-Mixed), trap 1 (CO2): the seeded lookups.
  for (const [date, counts] of [
    ['2025-07-08', [30, 4]],
    ['2025-07-09', [30, 4]],
    ['2025-07-10', []],
  ] as const) {
    const res = await browserFetch(base)('/api/v1/arthropod/collection', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf': '1' },
      body: JSON.stringify({
        collection_date: date,
        num_trap: 1,
        trap: 1,
        trap_nights: 1,
        location: {
          shape: { type: 'Point', coordinates: [-121.49, 38.58] },
          coordinate_precision: 1,
        },
        arthropods: counts.map((c, i) => ({ species: i + 1, sex: 1, num_count: c })),
      }),
    });
    expect(res.status, await res.clone().text()).toBe(201);
  }
}, 120_000);

afterEach(() => {
  vi.unstubAllGlobals();
  saved.length = 0;
});

afterAll(async () => {
  await server?.stop();
});

function stubSaving() {
  // jsdom has no object URLs: keep what the page would hand to the browser's save.
  URL.createObjectURL = (blob: Blob) => {
    saved.push(blob);
    return 'blob:saved';
  };
  URL.revokeObjectURL = () => undefined;
}

describe('export panel', () => {
  it('shows the server totals, downloads collections and says how many rows the file holds', async () => {
    vi.stubGlobal('fetch', browserFetch(base));
    stubSaving();
    render(<ExportPanel />);
    const item = screen.getByRole('heading', { name: 'Collections (CSV)' }).closest('li')!;
    // What the server holds, read through the BFF's proxy: each collection gives one row per
    // abundance row, an empty trap one row.
    const list = (await (
      await browserFetch(base)('/api/v1/arthropod/collection?pageSize=1000', {
        headers: { 'x-csrf': '1' },
      })
    ).json()) as { rows: Array<{ arthropods: unknown[] }>; count: number };
    const expected = list.rows.reduce((sum, c) => sum + Math.max(1, c.arthropods.length), 0);
    await within(item).findByText(
      new RegExp(`The server holds ${list.count.toLocaleString('en-US')} collections\\.`),
    );
    await userEvent.click(within(item).getByRole('button', { name: 'Download Collections (CSV)' }));
    const status = await within(item).findByRole('status');
    expect(status.textContent).toMatch(
      new RegExp(
        `^Downloaded ${expected.toLocaleString('en-US')} collection rows \\(trapline-demo-vector-control-district-collections-\\d{4}-\\d{2}-\\d{2}\\.csv\\)\\.$`,
      ),
    );
    // The file handed to the browser holds exactly that many rows after its header.
    expect(saved).toHaveLength(1);
    const lines = (await saved[0].text()).trimEnd().split('\r\n');
    expect(lines).toHaveLength(1 + expected);
  });

  it('says a download needs a connection when offline, and offers none', () => {
    vi.stubGlobal('navigator', { ...navigator, onLine: false });
    render(<ExportPanel />);
    expect(screen.getByText(/Downloads need a connection/)).toBeTruthy();
    for (const b of screen.getAllByRole('button'))
      expect((b as HTMLButtonElement).disabled).toBe(true);
  });

  it('says so when the server cannot be reached, saves nothing, and offers no more downloads', async () => {
    vi.stubGlobal('fetch', browserFetch(base));
    stubSaving();
    render(<ExportPanel />);
    const item = screen.getByRole('heading', { name: 'Pools (CSV)' }).closest('li')!;
    await within(item).findByText(/The server holds \d+ pools\./);
    // The connection goes, the browser still saying online: a port nothing listens on, a real
    // refused connection.
    vi.stubGlobal('fetch', browserFetch('http://127.0.0.1:9'));
    await userEvent.click(within(item).getByRole('button', { name: 'Download Pools (CSV)' }));
    await waitFor(() =>
      expect(within(item).getByRole('alert').textContent).toMatch(/No connection/),
    );
    expect(saved).toHaveLength(0);
    // The failed request is the app's evidence: the panel agrees with the rest of the app.
    expect(screen.getByText(/Downloads need a connection/)).toBeTruthy();
    expect(
      within(item).getByRole<HTMLButtonElement>('button', { name: 'Download Pools (CSV)' })
        .disabled,
    ).toBe(true);
  });
});
