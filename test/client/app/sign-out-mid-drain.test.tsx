import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { App } from '../../../src/client/app/app';
import { createSite } from '../../../src/client/db/create-site';
import { openUserDb } from '../../../src/client/db/database';
import { loadIdentity, saveIdentity } from '../../../src/client/lib/identity';
import type { SessionInfo } from '../../../src/shared';
import { startMainOnMigratedDir, type MainOnMigratedDir } from '../../helpers/spawned-main';

/**
 * A shared tablet on a slow network: demo-tech signs out while a change of theirs is still on its
 * way to the server, and neighbor-manager signs in at once. demo-tech's request reaches the BFF
 * after the sign-out and is refused (their session is gone): that answer is about demo-tech's
 * session, not about neighbor-manager's, who must not be told to sign in again (nor have their
 * queue paused) seconds after signing in. demo-tech's change stays on the tablet, for them.
 *
 * Real parts: `npm start` as a child process (the server modules cannot load in jsdom), the
 * page's fetch sent to it with a cookie jar as the browser keeps it; the network is slow for
 * changes sent (each leaves the tablet five seconds after the page sent it, with the
 * cookie the browser attached when it was sent). Nothing is answered in the test's place.
 */
const PASSWORD = 'sign-out-mid-drain-password';
// Long enough that the sign-out lands first on a loaded machine (2.5 s lost the race in CI once).
const SLOW_MS = 5_000;
let server: MainOnMigratedDir | undefined;
let base: string;
const nodeFetch = globalThis.fetch;

/** The browser's cookie for the origin (one session cookie), kept from Set-Cookie as a browser does. */
let jar = '';
function keep(res: Response) {
  for (const c of res.headers.getSetCookie()) {
    const [pair, ...attributes] = c.split(';');
    const cleared = attributes.some((a) => /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(a));
    jar = cleared || pair.endsWith('=') ? '' : pair;
  }
}

/** The page's same-origin fetch: the cookie attached when sent; changes travel slowly. */
async function browserFetch(input: RequestInfo | URL, init: RequestInit = {}) {
  const cookie = jar;
  const path = String(input);
  if (init.method === 'POST' && path.startsWith('/api/v1/'))
    await new Promise((r) => setTimeout(r, SLOW_MS));
  const res = await nodeFetch(`${base}${path}`, {
    ...init,
    headers: { ...(init.headers as Record<string, string>), cookie, origin: base },
  });
  keep(res);
  return res;
}

let tech: SessionInfo;

beforeAll(async () => {
  server = await startMainOnMigratedDir('trapline-sign-out-mid-drain-', PASSWORD);
  base = server.url;
  const res = await nodeFetch(`${base}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf': '1', origin: base },
    body: JSON.stringify({ username: 'demo-tech', password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  keep(res);
  tech = (await res.json()) as SessionInfo;
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe('signing out while a change is on its way, and another user signing in', () => {
  it(
    "does not ask the next user to sign in again because of the last user's refused request",
    { timeout: 60_000 },
    async () => {
      vi.stubGlobal('fetch', browserFetch);
      const techDb = openUserDb({ agencyId: tech.agency.id, username: tech.user.username });
      await createSite(techDb, {
        code: '917001',
        name: 'Slow Road Pond',
        coordinate_precision: 1,
        shape: { type: 'Point', coordinates: [-121.5, 38.6] },
      } as Parameters<typeof createSite>[1]);
      techDb.close();
      saveIdentity(tech);
      window.history.replaceState(null, '', '/settings');
      const user = userEvent.setup();
      render(<App />);

      // The site is on its way (the app sends it at start); demo-tech signs out meanwhile.
      const signOut = await screen.findByRole('button', { name: 'Sign out' }, { timeout: 20_000 });
      await within(screen.getByRole('region', { name: 'Sync status' })).findByText(/Sending/);
      await user.click(signOut);
      const ask = await screen.findByRole('dialog', { name: 'Sign out with unsent changes?' });
      await user.click(within(ask).getByRole('button', { name: 'Sign out anyway' }));

      // neighbor-manager signs in at once.
      await user.type(await screen.findByLabelText('Username'), 'neighbor-manager');
      await user.type(screen.getByLabelText('Password'), PASSWORD);
      await user.click(screen.getByRole('button', { name: 'Sign in' }));
      await screen.findByText(/Neighbor Mosquito Abatement District/, undefined, {
        timeout: 10_000,
      });

      // demo-tech's request arrives after the sign-out and is refused. neighbor-manager is not
      // asked to sign in again, and their sync is not paused.
      await new Promise((r) => setTimeout(r, SLOW_MS + 1_500));
      expect(screen.queryByRole('dialog', { name: 'Sign in again' })).toBeNull();
      const bar = screen.getByRole('region', { name: 'Sync status' });
      expect(bar.dataset.paused).toBe('false');

      // demo-tech's change is still on the tablet, in demo-tech's database, waiting for them.
      const again = openUserDb({ agencyId: tech.agency.id, username: tech.user.username });
      expect(await again.outbox.count()).toBe(1);
      again.close();
    },
  );

  it("leaves the next user's sign-in alone when the last user signs out in a tab left open", async () => {
    // Tab 1 was demo-tech's; in tab 2 demo-tech signed out and neighbor-manager signed in.
    jar = '';
    const signIn = async (username: string) => {
      const res = await browserFetch('/api/session', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf': '1' },
        body: JSON.stringify({ username, password: PASSWORD }),
      });
      expect(res.status).toBe(200);
      return (await res.json()) as SessionInfo;
    };
    const me = await signIn('demo-tech');
    // Nothing of theirs waits (the change of the test before is dropped).
    await openUserDb({ agencyId: me.agency.id, username: me.user.username }).delete();
    saveIdentity(me);
    vi.stubGlobal('fetch', browserFetch);
    window.history.replaceState(null, '', '/settings');
    const user = userEvent.setup();
    render(<App />);
    const signOut = await screen.findByRole('button', { name: 'Sign out' }, { timeout: 20_000 });
    const neighbor = await signIn('neighbor-manager');
    saveIdentity(neighbor);

    // demo-tech signs out in tab 1 (nothing of theirs waits).
    await user.click(signOut);
    await screen.findByLabelText('Username');

    // neighbor-manager is still remembered on the tablet and still signed in at the server.
    expect(loadIdentity()?.user.username).toBe('neighbor-manager');
    await new Promise((r) => setTimeout(r, 500));
    const res = await browserFetch('/api/session', { headers: { 'x-csrf': '1' } });
    expect(res.status).toBe(200);
    await openUserDb({ agencyId: me.agency.id, username: me.user.username }).delete();
  });
});
