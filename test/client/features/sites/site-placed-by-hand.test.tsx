import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  SiteForm,
  type LocationPickerProps,
} from '../../../../src/client/features/sites/site-form';
import { LOOKUPS } from '../../lookups-fixture';

/** The site form with its map picker replaced by a handle on the picker's props. */
function renderForm() {
  const picker: { current: LocationPickerProps | null } = { current: null };
  const onSubmit = vi.fn(async () => {});
  render(
    <SiteForm
      lookups={LOOKUPS}
      sites={[]}
      onSubmit={onSubmit}
      renderPicker={(props) => {
        picker.current = props;
        return null;
      }}
    />,
  );
  return { picker, onSubmit, user: userEvent.setup() };
}

/** A GPS that answers when told to (one bar, under trees: it takes its time). */
function slowGps() {
  let answer: ((pos: GeolocationPosition) => void) | null = null;
  Object.defineProperty(navigator, 'geolocation', {
    value: {
      getCurrentPosition: (ok: PositionCallback) => {
        answer = ok;
      },
    },
    configurable: true,
  });
  return {
    fix(latitude: number, longitude: number, accuracy: number) {
      act(() =>
        answer!({
          coords: { latitude, longitude, accuracy },
          timestamp: Date.now(),
        } as GeolocationPosition),
      );
    },
  };
}

describe('site form: a place set by hand', () => {
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'geolocation');
  });

  it('keeps the place tapped on the map while the GPS was still locating', async () => {
    const gps = slowGps();
    const { picker, user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Use my location' }));
    expect(screen.getByRole('button', { name: 'Locating…' })).toBeDisabled();
    // Tired of waiting, the technician taps the trap's place on the map.
    act(() => picker.current!.onPick(38.551234, -121.701234));
    await waitFor(() => expect(screen.getByLabelText('Latitude')).toHaveValue('38.551234'));
    // The fix arrives afterwards, 40 m away: the tapped place stays.
    gps.fix(38.5515, -121.7015, 35);
    // Not even for the one render before the form has weighed the fix (CI saw it there).
    expect(screen.queryByText(/GPS accuracy/)).not.toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Use my location' })).toBeEnabled(),
    );
    // Its accuracy is not the tapped place's: not shown (site-coordinates-by-hand.test.tsx).
    expect(screen.queryByText(/GPS accuracy/)).not.toBeInTheDocument();
    expect(screen.getByLabelText('Latitude')).toHaveValue('38.551234');
    expect(screen.getByLabelText('Longitude')).toHaveValue('-121.701234');
  });

  it('takes the GPS fix when nothing was placed meanwhile', async () => {
    const gps = slowGps();
    const { user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Use my location' }));
    gps.fix(38.5515, -121.7015, 8);
    await waitFor(() => expect(screen.getByLabelText('Latitude')).toHaveValue('38.5515'));
    expect(screen.getByLabelText('Longitude')).toHaveValue('-121.7015');
  });

  it('saves a tap on the map’s next world copy at its longitude within -180..180', async () => {
    const { picker, user, onSubmit } = renderForm();
    await user.type(screen.getByLabelText('Site code'), '104300');
    await user.type(screen.getByLabelText('Site name'), 'Willow Slough');
    await user.selectOptions(screen.getByLabelText('Coordinate precision'), '1');
    // Zoomed out, the map shows the world twice side by side: Leaflet gives the tap's longitude
    // on the copy tapped (-121.49 - 360).
    act(() => picker.current!.onPick(38.58, -481.49));
    await waitFor(() => expect(screen.getByLabelText('Longitude')).toHaveValue('-121.49'));
    await user.click(screen.getByRole('button', { name: 'Save site' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]).toEqual([
      expect.objectContaining({ shape: { type: 'Point', coordinates: [-121.49, 38.58] } }),
    ]);
  });
});
