import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { SiteRow } from '../../../../src/client/db/database';
import { SiteForm } from '../../../../src/client/features/sites/site-form';
import { LOOKUPS } from '../../lookups-fixture';

const putah: SiteRow = {
  localId: 'l-1',
  serverId: 7,
  syncState: 'synced',
  code: '104233',
  name: 'Putah Creek N',
  data: { code: '104233', name: 'Putah Creek N' },
  server: null,
  baseUpdated: null,
  parentLocalId: null,
  updatedAt: 0,
  problem: null,
};

function renderForm(onSubmit = vi.fn(async () => {})) {
  render(<SiteForm lookups={LOOKUPS} sites={[putah]} onSubmit={onSubmit} />);
  return { onSubmit, user: userEvent.setup() };
}

describe('site form', () => {
  it('explains every missing required field beside it and keeps what was typed', async () => {
    const { user, onSubmit } = renderForm();
    await user.type(screen.getByLabelText('Site name'), 'Willow Slough');
    await user.click(screen.getByRole('button', { name: 'Save site' }));
    expect(await screen.findByText('Site code must be exactly 6 digits')).toBeInTheDocument();
    expect(screen.getByText('Latitude is required')).toBeInTheDocument();
    expect(screen.getByText('Longitude is required')).toBeInTheDocument();
    expect(screen.getByText('Coordinate precision is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Site name')).toHaveValue('Willow Slough');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('names the site that already uses a code', async () => {
    const { user, onSubmit } = renderForm();
    await user.type(screen.getByLabelText('Site code'), '104233');
    await user.click(screen.getByRole('button', { name: 'Save site' }));
    expect(
      await screen.findByText(
        "Site code 104233 is already used by 'Putah Creek N' — pick another code",
      ),
    ).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('hints at swapped coordinates while typing and refuses them on save', async () => {
    const { user } = renderForm();
    await user.type(screen.getByLabelText('Latitude'), '-121.49');
    await user.type(screen.getByLabelText('Longitude'), '38.58');
    expect(screen.getByText(/look swapped/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save site' }));
    expect(await screen.findByText(/the coordinates look swapped/)).toBeInTheDocument();
  });

  it('hints at a positive longitude in California', async () => {
    const { user } = renderForm();
    await user.type(screen.getByLabelText('Latitude'), '38.58');
    await user.type(screen.getByLabelText('Longitude'), '121.49');
    expect(screen.getByText(/in California longitudes are negative/)).toBeInTheDocument();
  });

  it('saves a complete site as the shared create payload', async () => {
    const { user, onSubmit } = renderForm();
    await user.type(screen.getByLabelText('Site code'), '104300');
    await user.type(screen.getByLabelText('Site name'), 'Willow Slough');
    await user.type(screen.getByLabelText('Latitude'), '38.58');
    await user.type(screen.getByLabelText('Longitude'), '-121.49');
    await user.selectOptions(screen.getByLabelText('Coordinate precision'), '1');
    await user.type(screen.getByLabelText('Postal code'), '95616');
    await user.click(screen.getByRole('checkbox', { name: 'Residential' }));
    await user.click(screen.getByRole('button', { name: 'Save site' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]).toEqual([
      expect.objectContaining({
        code: '104300',
        name: 'Willow Slough',
        coordinate_precision: 1,
        shape: { type: 'Point', coordinates: [-121.49, 38.58] },
        postal_code: '95616',
        site_land_usage: [1],
      }),
    ]);
  });

  it('rejects a postal code that is not 5 digits', async () => {
    const { user } = renderForm();
    await user.type(screen.getByLabelText('Postal code'), '9561');
    await user.click(screen.getByRole('button', { name: 'Save site' }));
    expect(await screen.findByText('Postal code must be 5 digits')).toBeInTheDocument();
  });

  it('fills the location and a matching precision from the GPS', async () => {
    const getCurrentPosition = vi.fn((ok: PositionCallback) =>
      ok({
        coords: { latitude: 38.5812345678, longitude: -121.4923456789, accuracy: 42 },
      } as GeolocationPosition),
    );
    Object.defineProperty(navigator, 'geolocation', {
      value: { getCurrentPosition },
      configurable: true,
    });
    const { user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Use my location' }));
    expect(await screen.findByText('GPS accuracy ±42 m')).toHaveClass('accuracy-fair');
    expect(screen.getByLabelText('Latitude')).toHaveValue('38.581235');
    expect(screen.getByLabelText('Longitude')).toHaveValue('-121.492346');
    expect(screen.getByLabelText('Coordinate precision')).toHaveValue('2');
  });

  it('shows format help in a neutral colour, not the warning colour', () => {
    renderForm();
    expect(screen.getByText('6 digits, unique in your agency')).toHaveClass('hint-neutral');
    expect(screen.getByLabelText('Site code')).toHaveAccessibleDescription(
      '6 digits, unique in your agency',
    );
  });
});
