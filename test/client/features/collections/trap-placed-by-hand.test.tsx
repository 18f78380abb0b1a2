import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SiteRow } from '../../../../src/client/db/database';
import { CollectionForm } from '../../../../src/client/features/collections/collection-form';
import { LOOKUPS } from '../../lookups-fixture';

// The Zero Site's trap is placed per collection: "Use my location" or its coordinates typed.
// A fix arriving after the technician gave up on "Locating…" and typed the place must not
// overwrite it (as in the site form: site-placed-by-hand.test.tsx).

function siteRow(localId: string, code: string, name: string): SiteRow {
  return {
    localId,
    serverId: Number(code) || 1,
    syncState: 'synced',
    code,
    name,
    data: {
      code,
      name,
      coordinate_precision: 1,
      shape: { type: 'Point', coordinates: [-121.49, 38.58] },
    },
    server: null,
    baseUpdated: null,
    parentLocalId: null,
    updatedAt: 0,
    problem: null,
  };
}
const SITES = [siteRow('zero', '000000', 'Zero Site'), siteRow('s-1', '104233', 'Putah Creek N')];

/** A GPS that answers when told to (one bar, under trees: it takes its time). */
function slowGps() {
  const waiting: PositionCallback[] = [];
  Object.defineProperty(navigator, 'geolocation', {
    value: {
      getCurrentPosition: (ok: PositionCallback) => {
        waiting.push(ok);
      },
    },
    configurable: true,
  });
  return {
    fix(latitude: number, longitude: number, accuracy: number) {
      act(() => {
        for (const ok of waiting.splice(0))
          ok({
            coords: { latitude, longitude, accuracy },
            timestamp: Date.now(),
          } as GeolocationPosition);
      });
    },
  };
}

function renderForm() {
  const onSubmit = vi.fn(async () => {});
  render(
    <CollectionForm
      lookups={LOOKUPS}
      sites={SITES}
      recent={[]}
      initialSiteLocalId="zero"
      onSubmit={onSubmit}
    />,
  );
  return { onSubmit, user: userEvent.setup() };
}

describe('collection form: a trap placed by hand', () => {
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'geolocation');
  });

  it('keeps the trap’s place typed while the GPS was still locating', async () => {
    const gps = slowGps();
    const { user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Use my location' }));
    expect(screen.getByRole('button', { name: 'Locating…' })).toBeDisabled();
    // Tired of waiting, the technician types the trap's place from the paper sheet.
    await user.type(screen.getByLabelText('Latitude'), '38.551234');
    await user.type(screen.getByLabelText('Longitude'), '-121.701234');
    // The fix arrives afterwards, 40 m away: the typed place stays.
    gps.fix(38.5515, -121.7015, 35);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Use my location' })).toBeEnabled(),
    );
    expect(screen.getByLabelText('Latitude')).toHaveValue('38.551234');
    expect(screen.getByLabelText('Longitude')).toHaveValue('-121.701234');
    // Its accuracy is not the typed place's: not shown.
    expect(screen.queryByText(/GPS accuracy/)).not.toBeInTheDocument();
  });

  it('takes the GPS fix when nothing was placed meanwhile', async () => {
    const gps = slowGps();
    const { user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Use my location' }));
    gps.fix(38.5515, -121.7015, 8);
    await waitFor(() => expect(screen.getByLabelText('Latitude')).toHaveValue('38.5515'));
    expect(screen.getByLabelText('Longitude')).toHaveValue('-121.7015');
    expect(screen.getByText('GPS accuracy ±8 m')).toBeInTheDocument();
  });
});
