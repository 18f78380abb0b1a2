import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { SiteCreate } from '../../../../src/shared';
import {
  SiteForm,
  type LocationPickerProps,
} from '../../../../src/client/features/sites/site-form';
import type { SiteCheck } from '../../../../src/client/lib/site-index';
import { LOOKUPS } from '../../lookups-fixture';

/** A site already on the tablet, where a trap hangs on Willow Slough. */
const EXISTING: SiteCheck = {
  localId: 'existing-1',
  code: '104233',
  name: 'Willow Slough culvert',
  data: { shape: { type: 'Point', coordinates: [-121.7012, 38.5512] } },
  server: null,
};

/** The site form (new, or editing `initial`) with its map picker replaced by a handle on its props. */
function renderForm(initial?: Partial<SiteCreate>, sites: SiteCheck[] = []) {
  const picker: { current: LocationPickerProps | null } = { current: null };
  const onSubmit = vi.fn(async () => {});
  render(
    <SiteForm
      lookups={LOOKUPS}
      sites={sites}
      initial={initial}
      onSubmit={onSubmit}
      renderPicker={(props) => {
        picker.current = props;
        return null;
      }}
    />,
  );
  return { picker, onSubmit, user: userEvent.setup() };
}

/**
 * A tap on the map at `zoom` in Sacramento, as the picker reports it: with how far off a tap may
 * be there (22 px of ground: 82 m at zoom 15; the picker's own figure is mapTapMeters, geo.ts).
 */
const tap = (picker: LocationPickerProps, lat: number, lon: number, zoom: number) =>
  act(() => picker.onPick(lat, lon, 82 * 2 ** (15 - zoom)));

describe('site form: a place tapped on the map', () => {
  it('saves a site placed by one tap, with the precision of a tap at that zoom', async () => {
    const { picker, user, onSubmit } = renderForm();
    await user.type(screen.getByLabelText('Site code'), '104301');
    await user.type(screen.getByLabelText('Site name'), 'Willow Slough N');
    // Zoom 15, where the placement map opens on a site: a tap is good to ~80 m.
    tap(picker.current!, 38.5512, -121.7012, 15);
    await waitFor(() =>
      expect(screen.getByLabelText('Coordinate precision')).toHaveDisplayValue('Address (< 100 m)'),
    );
    await user.click(screen.getByRole('button', { name: 'Save site' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]).toEqual([
      expect.objectContaining({
        coordinate_precision: 2,
        shape: { type: 'Point', coordinates: [-121.7012, 38.5512] },
      }),
    ]);
    expect(screen.queryByText(/Coordinate precision is required/)).not.toBeInTheDocument();
  });

  it('describes a tap on the whole district no finer than it is, and a closer tap finer', async () => {
    const { picker } = renderForm();
    tap(picker.current!, 38.55, -121.7, 9);
    await waitFor(() =>
      expect(screen.getByLabelText('Coordinate precision')).toHaveDisplayValue('County centroid'),
    );
    // Zoomed in, the technician taps again: the place, and what it is good to, follow.
    tap(picker.current!, 38.5512, -121.7012, 16);
    await waitFor(() =>
      expect(screen.getByLabelText('Coordinate precision')).toHaveDisplayValue('Address (< 100 m)'),
    );
  });

  it('keeps a precision chosen by hand when the pin is moved afterwards', async () => {
    const { picker, user } = renderForm();
    tap(picker.current!, 38.5512, -121.7012, 15);
    await user.selectOptions(screen.getByLabelText('Coordinate precision'), '1');
    tap(picker.current!, 38.5513, -121.7013, 15);
    await waitFor(() => expect(screen.getByLabelText('Latitude')).toHaveValue('38.5513'));
    expect(screen.getByLabelText('Coordinate precision')).toHaveDisplayValue('GPS (< 10 m)');
  });

  it('describes an edited site moved on the map by the tap, not by its old GPS precision', async () => {
    const { picker } = renderForm({
      code: '104302',
      name: 'Willow Slough S',
      coordinate_precision: 1,
      shape: { type: 'Point', coordinates: [-121.7, 38.55] },
    });
    expect(screen.getByLabelText('Coordinate precision')).toHaveDisplayValue('GPS (< 10 m)');
    tap(picker.current!, 38.5507, -121.7004, 15);
    await waitFor(() =>
      expect(screen.getByLabelText('Coordinate precision')).toHaveDisplayValue('Address (< 100 m)'),
    );
  });

  it('names an existing site right beside the place tapped, and says nothing farther away', async () => {
    const { picker } = renderForm(undefined, [EXISTING]);
    // 30 m east of the culvert's trap: perhaps the same site placed twice.
    tap(picker.current!, 38.5512, -121.70085, 17);
    const note = await screen.findByTestId('site-close-by');
    expect(note).toHaveTextContent(
      'Site 104233 Willow Slough culvert is 30 m from here: check this is not the same site.',
    );
    // 400 m away: another place.
    tap(picker.current!, 38.5548, -121.7012, 15);
    await waitFor(() => expect(screen.queryByTestId('site-close-by')).not.toBeInTheDocument());
  });
});
