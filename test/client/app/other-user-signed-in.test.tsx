import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SignedInApp } from '../../../src/client/app/signed-in-app';
import { openUserDb } from '../../../src/client/db/database';
import { saveIdentity } from '../../../src/client/lib/identity';
import { readStoredReports } from '../../../src/client/lib/report-cache';
import type { SessionInfo } from '../../../src/shared';
import { startMainOnMigratedDir, type MainOnMigratedDir } from '../../helpers/spawned-main';

/**
 * A shared tablet, two tabs: demo-tech's app stays open in tab 1 while, in tab 2, demo-tech signed
 * out and neighbor-manager (another agency) signed in. The browser has one session cookie for
 * the origin: tab 1's requests now carry neighbor-manager's. The sync engine names its owner and
 * the BFF refuses it (shared-tablet.node.test.ts); the rest of tab 1 (the export panel, reports,
 * lookups) must not show or download the other agency's data under demo-tech's name either.
 *
 * Real parts: `npm start` as a child process (the server modules cannot load in jsdom), the page's
 * same-origin fetch sent to it with the browser's cookie; nothing is answered in the test's place.
 */
const PASSWORD = 'other-user-signed-in-password';
let server: MainOnMigratedDir | undefined;
let base: string;
const nodeFetch = globalThis.fetch;
const saved: Blob[] = [];

/** Signs in as `username` from the browser holding `cookie`; answers the new cookie and who. */
async function signIn(username: string, cookie: string) {
  const res = await nodeFetch(`${base}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf': '1', origin: base, cookie },
    body: JSON.stringify({ username, password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  const next = res.headers
    .getSetCookie()
    .map((c) => c.split(';', 1)[0])
    .join('; ');
  return { cookie: next, info: (await res.json()) as SessionInfo };
}

/** The browser's one session cookie for the origin, shared by its tabs. */
let browserCookie = '';

/** The page's same-origin fetch, as the browser sends it: with the origin's one cookie. */
async function browserFetch(input: RequestInfo | URL, init: RequestInit = {}) {
  const res = await nodeFetch(`${base}${String(input)}`, {
    ...init,
    headers: { ...(init.headers as Record<string, string>), cookie: browserCookie, origin: base },
  });
  const set = res.headers.getSetCookie().map((c) => c.split(';', 1)[0]);
  if (set.length > 0) browserCookie = set.join('; ');
  return res;
}

/** Another tab signs in as `username`: the browser's cookie is theirs from then on. */
async function otherTabSignsIn(username: string): Promise<SessionInfo> {
  const { cookie, info } = await signIn(username, browserCookie);
  browserCookie = cookie;
  return info;
}

beforeAll(async () => {
  server = await startMainOnMigratedDir('trapline-other-user-', PASSWORD);
  base = server.url;
}, 120_000);

afterEach(() => {
  saved.length = 0;
});

afterAll(async () => {
  await server?.stop();
});

describe("demo-tech's tab after another agency's user signed in in another tab", () => {
  it(
    "downloads no report CSV or export of the other agency under demo-tech's name, and asks demo-tech to sign in",
    { timeout: 60_000 },
    async () => {
      const tech = await otherTabSignsIn('demo-tech');
      vi.stubGlobal('fetch', browserFetch);
      // jsdom has no object URLs: keep what the page would hand to the browser's save.
      URL.createObjectURL = (blob: Blob) => {
        saved.push(blob);
        return 'blob:saved';
      };
      URL.revokeObjectURL = () => undefined;
      window.history.replaceState(null, '', '/reports');
      render(
        <SignedInApp identity={tech} onIdentity={() => undefined} onSignOut={() => undefined} />,
      );
      // demo-tech's report is on screen.
      await screen.findByTestId('report-computed', undefined, { timeout: 20_000 });

      // In tab 2: demo-tech signs out, neighbor-manager (another agency) signs in.
      const neighbor = await otherTabSignsIn('neighbor-manager');
      expect(neighbor.agency.id).not.toBe(tech.agency.id);

      // Tab 1, still demo-tech's: the report's CSV is not the neighbour agency's.
      const csv = screen.getByRole('button', { name: 'Download CSV' });
      await userEvent.click(csv);
      const said = await waitFor(
        () => {
          const status = csv.parentElement?.querySelector('[role="status"]');
          expect(status).toBeTruthy();
          return status!.textContent;
        },
        { timeout: 10_000 },
      );
      expect(saved.map((b) => b.size)).toEqual([]);
      expect(said).toMatch(/sign in again, then download/i);
      // The sheet follows the refusal once the app has rendered it: on a loaded machine (a whole
      // npm test, four files at once) later than Testing Library's default second.
      const sheet = await screen.findByRole(
        'dialog',
        { name: 'Sign in again' },
        { timeout: 10_000 },
      );
      await userEvent.click(within(sheet).getByRole('button', { name: 'Later' }));

      // Nor is an export.
      const item = screen.getByRole('heading', { name: 'Sites (CSV)' }).closest('li')!;
      await userEvent.click(within(item).getByRole('button', { name: 'Download Sites (CSV)' }));
      await waitFor(() => expect(within(item).queryByRole('alert')).not.toBe(null), {
        timeout: 10_000,
      });
      expect(within(item).getByRole('alert').textContent).toMatch(/sign in again/i);
      expect(saved.map((b) => b.size)).toEqual([]);

      cleanup();
      await openUserDb({ agencyId: tech.agency.id, username: tech.user.username }).delete();
    },
  );

  it(
    "shows neighbor-manager none of demo-tech's kept reports after demo-tech signed in again in another tab",
    { timeout: 60_000 },
    async () => {
      // Tab 1: demo-tech opens a report, which the tablet keeps for demo-tech (offline use).
      const tech = await otherTabSignsIn('demo-tech');
      saveIdentity(tech);
      vi.stubGlobal('fetch', browserFetch);
      window.history.replaceState(null, '', '/reports');
      render(
        <SignedInApp identity={tech} onIdentity={() => undefined} onSignOut={() => undefined} />,
      );
      await screen.findByTestId('report-computed', undefined, { timeout: 20_000 });
      await new Promise((r) => setTimeout(r, 1_000));
      const keptFor = async (who: SessionInfo) =>
        ((await readStoredReports(`${who.agency.id}:${who.user.username}`))?.queries ?? []).length;
      expect(await keptFor(tech)).toBeGreaterThan(0);
      cleanup();

      // Tab 2: demo-tech signed out, neighbor-manager signed in; then, in tab 1, demo-tech signed
      // in again: the tablet remembers demo-tech and the cookie is demo-tech's.
      const neighbor = await otherTabSignsIn('neighbor-manager');
      saveIdentity(neighbor);
      await otherTabSignsIn('demo-tech');
      saveIdentity(tech);

      // Tab 2, neighbor-manager's app, opens Reports: asked to sign in, and shown nothing of
      // demo-tech's agency meanwhile.
      window.history.replaceState(null, '', '/reports');
      render(
        <SignedInApp
          identity={neighbor}
          onIdentity={() => undefined}
          onSignOut={() => undefined}
        />,
      );
      await screen.findByRole('dialog', { name: 'Sign in again' }, { timeout: 20_000 });
      await screen.findByRole('heading', { name: 'Reports' });
      await new Promise((r) => setTimeout(r, 1_000));
      expect(screen.queryByTestId('report-computed')).toBeNull();
      expect(screen.queryByRole('table')).toBeNull();
      cleanup();
      await openUserDb({ agencyId: tech.agency.id, username: tech.user.username }).delete();
      await openUserDb({
        agencyId: neighbor.agency.id,
        username: neighbor.user.username,
      }).delete();
    },
  );

  it(
    'shows the report once demo-tech signs in again from the sheet, without leaving the screen',
    { timeout: 60_000 },
    async () => {
      const tech = await otherTabSignsIn('demo-tech');
      saveIdentity(tech);
      await otherTabSignsIn('neighbor-manager');
      vi.stubGlobal('fetch', browserFetch);
      // No report kept on this tablet yet (the tests before kept some).
      await new Promise((resolve, reject) => {
        const req = indexedDB.deleteDatabase('trapline-report-cache');
        req.onsuccess = resolve;
        req.onerror = reject;
      });

      // Tab 1, demo-tech's, opens Reports: refused (the cookie is the neighbour's), asked to sign in.
      window.history.replaceState(null, '', '/reports');
      const user = userEvent.setup();
      render(
        <SignedInApp identity={tech} onIdentity={() => undefined} onSignOut={() => undefined} />,
      );
      const sheet = await screen.findByRole(
        'dialog',
        { name: 'Sign in again' },
        { timeout: 20_000 },
      );
      await screen.findByText(/sign in again to see reports/i, undefined, { timeout: 20_000 });
      await user.type(within(sheet).getByLabelText('Password'), PASSWORD);
      await user.click(within(sheet).getByRole('button', { name: 'Sign in' }));

      // Signed in: the report comes, and the screen no longer says to sign in.
      await screen.findByTestId('report-computed', undefined, { timeout: 10_000 });
      expect(screen.queryByText(/sign in again to see reports/i)).toBeNull();
      cleanup();
      await openUserDb({ agencyId: tech.agency.id, username: tech.user.username }).delete();
    },
  );
});
