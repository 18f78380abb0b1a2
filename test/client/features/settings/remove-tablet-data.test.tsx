import { QueryClient } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Dexie from 'dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../../../src/client/app/app';
import { createSite } from '../../../../src/client/db/create-site';
import { databaseName, openUserDb } from '../../../../src/client/db/database';
import { clearIdentity, saveIdentity } from '../../../../src/client/lib/identity';
import {
  readStoredReports,
  REPORT_KEY,
  startReportCache,
} from '../../../../src/client/lib/report-cache';
import type { SessionInfo } from '../../../../src/shared';
import { SiteIndexCore } from '../../../../src/client/lib/site-index-core';
import { snapshotDbName, writeSnapshot } from '../../../../src/client/lib/site-index-snapshot';
import { makeSite } from '../../db/factories';

/** A technician of agency 1 on a tablet that works offline (every request fails). */
function technician(): SessionInfo {
  return {
    user: { id: 7, username: `tech-${Math.random().toString(36).slice(2)}`, name: 'Sam' },
    agency: { id: 1, name: 'Demo Vector Control' },
    expiresAt: '2099-01-01T00:00:00.000Z',
  };
}

const ownerOf = (who: SessionInfo) => ({ agencyId: who.agency.id, username: who.user.username });
const reportOwner = (who: SessionInfo) => `${who.agency.id}:${who.user.username}`;

/**
 * The user's database holding one site, sent (`unsent`: not yet), the site index's snapshot of
 * it (as the Sites screen leaves it), and one kept report.
 */
async function tabletWithData(who: SessionInfo, { unsent }: { unsent: boolean }) {
  const db = openUserDb(ownerOf(who));
  const localId = await createSite(db, makeSite({ code: '918101', name: 'Handover Pond' }));
  if (!unsent) {
    await db.outbox.clear();
    await db.sites.update(localId, { syncState: 'synced', serverId: 4101 });
  }
  const index = new SiteIndexCore();
  index.load(await db.sites.toArray());
  await writeSnapshot(db.name, index.snapshot());
  expect(await Dexie.exists(snapshotDbName(db.name))).toBe(true);
  db.close();
  const client = new QueryClient();
  await startReportCache(client, reportOwner(who));
  client.setQueryData([REPORT_KEY, reportOwner(who), 'abundance', 'year=2026'], { rows: [1] });
  await vi.waitFor(async () => expect(await readStoredReports(reportOwner(who))).not.toBeNull());
}

let signedIn: SessionInfo | null = null;
afterEach(async () => {
  vi.unstubAllGlobals();
  if (signedIn) {
    // The next file's app must not open as this user.
    clearIdentity(signedIn);
    await Dexie.delete(databaseName(ownerOf(signedIn)));
    await Dexie.delete(snapshotDbName(databaseName(ownerOf(signedIn))));
  }
  signedIn = null;
});

async function openSettings(who: SessionInfo) {
  signedIn = who;
  saveIdentity(who);
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    }),
  );
  window.history.replaceState(null, '', '/settings');
  const user = userEvent.setup();
  render(<App />);
  return user;
}

// Hostile re-probe (issue 36 N7): after Sign out the user's records and kept reports stayed
// readable in the browser, and nothing offered to remove them.
describe('Settings: Remove this tablet’s data', () => {
  it('with everything sent, deletes the user’s records and kept reports and signs out', async () => {
    const who = technician();
    await tabletWithData(who, { unsent: false });
    const user = await openSettings(who);

    await user.click(
      await screen.findByRole('button', { name: 'Remove this tablet’s data' }, { timeout: 10_000 }),
    );
    const ask = await screen.findByRole('dialog', {
      name: `Remove ${who.user.username}’s data from this tablet?`,
    });
    await user.click(within(ask).getByRole('button', { name: 'Remove and sign out' }));

    await screen.findByLabelText('Username', {}, { timeout: 10_000 });
    await vi.waitFor(async () =>
      expect(await Dexie.exists(databaseName(ownerOf(who)))).toBe(false),
    );
    // Nothing of theirs left: the site index's snapshot of their sites (names, places) neither.
    expect(await Dexie.exists(snapshotDbName(databaseName(ownerOf(who))))).toBe(false);
    expect(await readStoredReports(reportOwner(who))).toBeNull();
  });

  it('with a change not sent, says so and removes nothing', async () => {
    const who = technician();
    await tabletWithData(who, { unsent: true });
    const user = await openSettings(who);

    await user.click(
      await screen.findByRole('button', { name: 'Remove this tablet’s data' }, { timeout: 10_000 }),
    );
    const ask = await screen.findByRole('dialog', { name: 'Changes not sent: nothing removed' });
    expect(ask).toHaveTextContent('1 change has not been sent yet');
    expect(within(ask).queryByRole('button', { name: /Remove/ })).toBeNull();
    await user.click(within(ask).getByRole('button', { name: 'Close' }));

    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
    const db = openUserDb(ownerOf(who));
    expect(await db.sites.count()).toBe(1);
    expect(await db.outbox.count()).toBe(1);
    db.close();
    expect(await Dexie.exists(snapshotDbName(databaseName(ownerOf(who))))).toBe(true);
    expect(await readStoredReports(reportOwner(who))).not.toBeNull();
  });
});
