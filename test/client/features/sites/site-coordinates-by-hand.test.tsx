import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SiteRow } from '../../../../src/client/db/database';
import {
  SiteForm,
  type LocationPickerProps,
} from '../../../../src/client/features/sites/site-form';
import { LOOKUPS } from '../../lookups-fixture';

/** A stored site of the agency, at [lon, lat] (look-alike names on purpose). */
function site(localId: string, code: string, name: string, at?: [number, number]): SiteRow {
  const data = at ? { code, name, shape: { type: 'Point', coordinates: at } } : { code, name };
  return {
    localId,
    serverId: null,
    syncState: 'synced',
    code,
    name,
    data,
    server: null,
    baseUpdated: null,
    parentLocalId: null,
    updatedAt: 0,
    problem: null,
  } as SiteRow;
}

/** Two sites of a Davis-area agency, same name prefix, a few hundred metres apart. */
const DAVIS_SITES = [
  site('l-1', '104233', 'Putah Creek N', [-121.7405, 38.5201]),
  site('l-2', '104234', 'Putah Creek NE', [-121.7378, 38.5212]),
];

function renderForm(sites: SiteRow[] = DAVIS_SITES) {
  const onSubmit = vi.fn(async () => {});
  const picker: { current: LocationPickerProps | null } = { current: null };
  render(
    <SiteForm
      lookups={LOOKUPS}
      sites={sites}
      onSubmit={onSubmit}
      renderPicker={(props) => {
        picker.current = props;
        return null;
      }}
    />,
  );
  return { onSubmit, picker, user: userEvent.setup() };
}

async function fillRest(user: ReturnType<typeof userEvent.setup>, code = '104300') {
  await user.type(screen.getByLabelText('Site code'), code);
  await user.type(screen.getByLabelText('Site name'), 'Putah Creek NW');
  await user.selectOptions(screen.getByLabelText('Coordinate precision'), '1');
}

const savedCoordinates = (onSubmit: ReturnType<typeof vi.fn>) =>
  (onSubmit.mock.calls[0][0] as { shape: { coordinates: number[] } }).shape.coordinates;

describe('site form: coordinates typed on a phone keypad without a minus key', () => {
  it('turns a typed longitude negative with the sign button beside it', async () => {
    const { user, onSubmit } = renderForm();
    await fillRest(user);
    await user.type(screen.getByLabelText('Latitude'), '38.5208');
    // The decimal keypad has no minus: digits, then the big sign button.
    await user.type(screen.getByLabelText('Longitude'), '121.7391');
    await user.click(screen.getByRole('button', { name: 'Change sign of longitude' }));
    expect(screen.getByLabelText('Longitude')).toHaveValue('-121.7391');
    expect(screen.queryByText(/longitudes are negative/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save site' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(savedCoordinates(onSubmit)).toEqual([-121.7391, 38.5208]);
  });

  it('takes the sign first, then the digits, and a second tap takes the sign back', async () => {
    const { user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Change sign of latitude' }));
    await user.type(screen.getByLabelText('Latitude'), '38.5208');
    expect(screen.getByLabelText('Latitude')).toHaveValue('-38.5208');
    await user.click(screen.getByRole('button', { name: 'Change sign of latitude' }));
    expect(screen.getByLabelText('Latitude')).toHaveValue('38.5208');
  });

  it('reads a trailing W as a negative longitude', async () => {
    const { user, onSubmit } = renderForm();
    await fillRest(user);
    await user.type(screen.getByLabelText('Latitude'), '38.5208 N');
    await user.type(screen.getByLabelText('Longitude'), '121.7391 W');
    await user.click(screen.getByRole('button', { name: 'Save site' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(savedCoordinates(onSubmit)).toEqual([-121.7391, 38.5208]);
    expect(screen.getByLabelText('Longitude')).toHaveValue('-121.7391');
  });

  it('still takes a typed minus', async () => {
    const { user, onSubmit } = renderForm();
    await fillRest(user);
    await user.type(screen.getByLabelText('Latitude'), '38.5208');
    await user.type(screen.getByLabelText('Longitude'), '-121.7391');
    await user.click(screen.getByRole('button', { name: 'Save site' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(savedCoordinates(onSubmit)).toEqual([-121.7391, 38.5208]);
  });
});

describe('site form: a comma as the decimal separator', () => {
  it('takes "38,5208" as 38.5208, shows it with a point and saves it', async () => {
    const { user, onSubmit } = renderForm();
    await fillRest(user);
    await user.type(screen.getByLabelText('Latitude'), '38,5208');
    await user.type(screen.getByLabelText('Longitude'), '-121,7391');
    expect(screen.getByLabelText('Latitude')).toHaveValue('38.5208');
    expect(screen.getByLabelText('Longitude')).toHaveValue('-121.7391');
    await user.click(screen.getByRole('button', { name: 'Save site' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(screen.queryByText(/must be a number/)).not.toBeInTheDocument();
    expect(savedCoordinates(onSubmit)).toEqual([-121.7391, 38.5208]);
  });
});

describe('site form: a place far from every other site', () => {
  it('asks before saving a longitude typed without its minus (a site in China)', async () => {
    const { user, onSubmit } = renderForm();
    await fillRest(user);
    await user.type(screen.getByLabelText('Latitude'), '38.5208');
    await user.type(screen.getByLabelText('Longitude'), '121.7391');
    await user.click(screen.getByRole('button', { name: 'Save site' }));
    expect(
      await screen.findByText(/This place is [\d,]+ km from your other sites\. Save it there\?/),
    ).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
    // The technician sees the mistake, fixes the sign and saves: nothing more is asked.
    await user.click(screen.getByRole('button', { name: 'Change the place' }));
    await user.click(screen.getByRole('button', { name: 'Change sign of longitude' }));
    expect(screen.queryByText(/Save it there\?/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save site' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(savedCoordinates(onSubmit)).toEqual([-121.7391, 38.5208]);
  });

  it('saves a far place once confirmed', async () => {
    const { user, onSubmit } = renderForm();
    await fillRest(user);
    // A training site at the agency's sister district in Arizona, really that far.
    await user.type(screen.getByLabelText('Latitude'), '33.4484');
    await user.type(screen.getByLabelText('Longitude'), '-112.074');
    await user.click(screen.getByRole('button', { name: 'Save site' }));
    await screen.findByText(/Save it there\?/);
    expect(onSubmit).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Save it there' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(savedCoordinates(onSubmit)).toEqual([-112.074, 33.4484]);
  });

  it('asks nothing for a place near the other sites, nor for the agency’s first site', async () => {
    const near = renderForm();
    await fillRest(near.user);
    await near.user.type(screen.getByLabelText('Latitude'), '38.5208');
    await near.user.type(screen.getByLabelText('Longitude'), '-121.7391');
    await near.user.click(screen.getByRole('button', { name: 'Save site' }));
    await waitFor(() => expect(near.onSubmit).toHaveBeenCalledTimes(1));
    expect(screen.queryByText(/Save it there\?/)).not.toBeInTheDocument();
  });

  it('asks nothing for the first site of an agency (only sites without a place)', async () => {
    const { user, onSubmit } = renderForm([site('l-9', '104233', 'Putah Creek N')]);
    await fillRest(user);
    await user.type(screen.getByLabelText('Latitude'), '33.4484');
    await user.type(screen.getByLabelText('Longitude'), '-112.074');
    await user.click(screen.getByRole('button', { name: 'Save site' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
  });

  it('asks nothing on editing the name of a far site whose place stays', async () => {
    const onSubmit = vi.fn(async () => {});
    const far = site('l-3', '104240', 'Putah Creek N (Phoenix training)', [-112.074, 33.4484]);
    render(
      <SiteForm
        lookups={LOOKUPS}
        sites={[...DAVIS_SITES, far]}
        selfLocalId="l-3"
        initial={{
          code: '104240',
          name: far.name,
          coordinate_precision: 1,
          shape: { type: 'Point', coordinates: [-112.074, 33.4484] },
        }}
        onSubmit={onSubmit}
      />,
    );
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Site name'), ' 2');
    await user.click(screen.getByRole('button', { name: 'Save site' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(screen.queryByText(/Save it there\?/)).not.toBeInTheDocument();
  });

  it('warns on 0, 0 even for the first site', async () => {
    const { user, onSubmit } = renderForm([]);
    await fillRest(user);
    await user.type(screen.getByLabelText('Latitude'), '0');
    await user.type(screen.getByLabelText('Longitude'), '0');
    await user.click(screen.getByRole('button', { name: 'Save site' }));
    expect(await screen.findByText(/0, 0/)).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});

describe('site form: the GPS accuracy note', () => {
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'geolocation');
  });

  it('shows no GPS accuracy once the fix was ignored for a place set by hand', async () => {
    let answer: ((pos: GeolocationPosition) => void) | null = null;
    Object.defineProperty(navigator, 'geolocation', {
      value: {
        getCurrentPosition: (ok: PositionCallback) => {
          answer = ok;
        },
      },
      configurable: true,
    });
    const { picker, user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Use my location' }));
    act(() => picker.current!.onPick(38.520812, -121.739112));
    await waitFor(() => expect(screen.getByLabelText('Latitude')).toHaveValue('38.520812'));
    act(() =>
      answer!({
        coords: { latitude: 38.5212, longitude: -121.7395, accuracy: 35 },
        timestamp: Date.now(),
      } as GeolocationPosition),
    );
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Use my location' })).toBeEnabled(),
    );
    expect(screen.getByLabelText('Latitude')).toHaveValue('38.520812');
    expect(screen.queryByText(/GPS accuracy/)).not.toBeInTheDocument();
  });
});
