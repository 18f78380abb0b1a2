import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SiteRow } from '../../../../src/client/db/database';
import { CollectionForm } from '../../../../src/client/features/collections/collection-form';
import { LOOKUPS } from '../../lookups-fixture';

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

/** A GPS that answers every request the same way. */
function gps(answer: (ok: PositionCallback, fail: PositionErrorCallback) => void) {
  Object.defineProperty(navigator, 'geolocation', {
    value: { getCurrentPosition: vi.fn(answer) },
    configurable: true,
  });
}
const fails = (code: number) => (_ok: PositionCallback, fail: PositionErrorCallback) =>
  fail({ code, message: 'x' } as GeolocationPositionError);

function renderForm(initialSiteLocalId: string) {
  render(
    <CollectionForm
      lookups={LOOKUPS}
      sites={SITES}
      recent={[]}
      initialSiteLocalId={initialSiteLocalId}
      onSubmit={async () => {}}
    />,
  );
  return userEvent.setup();
}

describe('where the trap is', () => {
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'geolocation');
  });

  it('shows the GPS accuracy in colour after Use my location at the Zero Site', async () => {
    gps((ok) =>
      ok({
        coords: { latitude: 38.5812345, longitude: -121.4923456, accuracy: 8 },
      } as GeolocationPosition),
    );
    const user = renderForm('zero');
    await user.click(screen.getByRole('button', { name: 'Use my location' }));
    expect(await screen.findByText('GPS accuracy ±8 m')).toHaveClass('accuracy-good');
    expect(screen.getByLabelText('Latitude')).toHaveValue('38.581235');
  });

  it('says the sites are not nearest first because location permission was refused', async () => {
    gps(fails(1));
    renderForm('');
    expect(
      await screen.findByText('Sorted by code, not nearest first: location permission was refused'),
    ).toBeInTheDocument();
  });

  it('says the sites are not nearest first because the GPS took too long', async () => {
    gps(fails(3));
    renderForm('');
    expect(
      await screen.findByText('Sorted by code, not nearest first: the GPS took too long'),
    ).toBeInTheDocument();
  });
});
