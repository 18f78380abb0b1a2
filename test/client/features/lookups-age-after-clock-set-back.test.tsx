import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HomeScreen } from '../../../src/client/features/home/home-screen';
import { SettingsScreen } from '../../../src/client/features/settings/settings-screen';
import { INITIAL_STATUS } from '../../../src/client/sync';
import { LOOKUPS } from '../lookups-fixture';
import { makeDb } from '../db/factories';
import { renderScreen } from './helpers/records';

const DAY = 86_400_000;

/** A tablet whose lists were downloaded while its clock ran three days ahead, since corrected. */
async function listsStampedAhead() {
  const db = makeDb();
  await db.lookups.put({
    key: 'lookups',
    etag: null,
    document: LOOKUPS,
    storedAt: Date.now() + 3 * DAY,
  });
  return db;
}

/**
 * Home and Settings say how old the tablet's lists are. A time stamped while the clock ran ahead
 * tells nothing about how long ago it was: it must never read as "just now" (the lists may be
 * days old) nor as a time to come.
 */
describe('the age of the lists after the tablet’s clock was set back', () => {
  it('Home says the time is unknown, never "Lists updated just now"', async () => {
    const db = await listsStampedAhead();
    renderScreen(db, <HomeScreen userName="Sam" status={INITIAL_STATUS} online />);

    const age = await screen.findByTestId('home-lookups-age');
    expect(age).toHaveTextContent('Lists updated: time unknown (the tablet’s clock was changed)');
    expect(age).not.toHaveTextContent(/just now|ago/);
  });

  it('Settings says the time is unknown, never "updated just now"', async () => {
    const db = await listsStampedAhead();
    renderScreen(
      db,
      <SettingsScreen
        username="demo-tech"
        agencyName="Demo Vector Control District"
        onSignOut={() => undefined}
        onRefreshLookups={async () => 'Lookups are up to date'}
      />,
      '/settings',
    );

    const age = await screen.findByTestId('lookups-age');
    await expect
      .poll(() => age.textContent)
      .toBe('updated: time unknown (the tablet’s clock was changed)');
  });

  it('a time from a few seconds ahead (clocks differ by that much) still reads "just now"', async () => {
    const db = makeDb();
    await db.lookups.put({
      key: 'lookups',
      etag: null,
      document: LOOKUPS,
      storedAt: Date.now() + 10_000,
    });
    renderScreen(db, <HomeScreen userName="Sam" status={INITIAL_STATUS} online />);

    expect(await screen.findByTestId('home-lookups-age')).toHaveTextContent(
      'Lists updated just now',
    );
  });
});
