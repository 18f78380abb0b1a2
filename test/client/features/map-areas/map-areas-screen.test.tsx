import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MapAreasScreen } from '../../../../src/client/features/map-areas/map-areas-screen';
import { countTiles } from '../../../../src/client/features/map-areas/tile-math';
import { storePulledRows } from '../../../../src/client/sync/store-pulled-rows';
import { pulledSite, renderScreen, tabletDb } from '../helpers/records';

// A closed loopback port: the sample tiles fail at once, and nothing reaches the internet.
const LOCAL_TILES = 'http://127.0.0.1:9/{z}/{x}/{y}.png';

/** The map config the BFF serves (GET /api/config), and the tablet's last copy of it. */
function configure(config: object) {
  localStorage.setItem('trapline.config', JSON.stringify(config));
  // A server that answers: with none, the screen rightly says the tablet is offline. Tiles still
  // come from the network (the closed port).
  const network = globalThis.fetch;
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
    String(input) === '/api/config' ? Promise.resolve(Response.json(config)) : network(input, init),
  );
}

describe('Offline map areas screen', () => {
  beforeEach(() => localStorage.clear());

  it('says why area download is not offered when the tile server has not been marked as allowing it', async () => {
    configure({ tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png' });
    renderScreen(await tabletDb(), <MapAreasScreen />, '/map-areas');
    expect(
      await screen.findByText(
        /Area download is not offered for this map: its tile server \(tile\.openstreetmap\.org\) does not allow bulk downloads/,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Download an area' })).toBeNull();
    expect(screen.getByText('No saved map areas yet on this tablet.')).toBeInTheDocument();
    // Said to a technician: who to ask, not the server's settings.
    const banner = screen.getByText(/Area download is not offered/);
    expect(banner.textContent).toMatch(/Ask your office/);
    expect(banner.textContent).not.toMatch(/TILE_|=allowed/);
  });

  it('suggests an area starting at the zoom the Sites map opens at, so the first map offline is drawn', async () => {
    configure({ tileUrl: LOCAL_TILES, tileBulkDownload: true });
    const db = await tabletDb();
    // The demo district: sites from Davis to east Sacramento, which Sites frames at about zoom 9.
    const at = (id: number, lon: number, lat: number) =>
      pulledSite({
        id,
        code: String(104200 + id),
        shape: { type: 'Point', coordinates: [lon, lat] },
      });
    await storePulledRows(db, Date.now(), 'site', [
      at(1, -121.77, 38.265),
      at(2, -121.224, 38.738),
      at(3, -121.5, 38.58),
    ]);
    renderScreen(db, <MapAreasScreen />, '/map-areas');
    const form = await screen.findByRole('form', { name: 'Download an area' });
    await within(form).findByText(/3 sites/);
    await expect
      .poll(() => Number((within(form).getByLabelText('From zoom') as HTMLSelectElement).value))
      .toBeLessThanOrEqual(9);
    // A single site needs no more than the district zoom.
    expect(Number((within(form).getByLabelText('To zoom') as HTMLSelectElement).value)).toBe(16);
  });

  it('checks a typed rectangle, keeps what was typed, and counts its tiles once it is right', async () => {
    configure({ tileUrl: LOCAL_TILES, tileBulkDownload: true });
    const user = renderScreen(await tabletDb(), <MapAreasScreen />, '/map-areas');
    const form = await screen.findByRole('form', { name: 'Download an area' });
    // Pasted, not typed key by key: each keystroke recounts the tiles, slow on a loaded machine.
    const fill = async (label: string, text: string) => {
      const input = within(form).getByLabelText(label);
      await user.clear(input);
      await user.click(input);
      await user.paste(text);
    };
    // No site on this tablet has a location: the rectangle is the only choice.
    await within(form).findByText(/no site on this tablet has a location/);
    expect(within(form).getByLabelText(/A rectangle I draw on the map or enter/)).toBeChecked();
    await fill('North (latitude)', '38.4');
    await fill('South (latitude)', '38.75');
    await fill('West (longitude)', 'west');
    await user.click(within(form).getByRole('button', { name: 'Download area' }));
    expect(
      within(form).getByText('The south edge must be below the north edge'),
    ).toBeInTheDocument();
    expect(within(form).getByText('Enter the west edge in decimal degrees')).toBeInTheDocument();
    expect(within(form).getByLabelText('West (longitude)')).toHaveValue('west');

    await fill('North (latitude)', '38.75');
    await fill('South (latitude)', '38.4');
    await fill('West (longitude)', '-121.9');
    await fill('East (longitude)', '-121.3');
    const expected = countTiles({ west: -121.9, south: 38.4, east: -121.3, north: 38.75 }, 10, 16);
    expect(within(form).getByTestId('area-tiles')).toHaveTextContent(
      expected.toLocaleString('en-US'),
    );
    // The sample tiles cannot be read here: the estimate says so rather than guessing.
    expect(
      await within(form).findByText(/^unknown \(no sample tile could be read/),
    ).toBeInTheDocument();
    expect(within(form).queryByRole('alert')).toBeNull();

    // Zoom 10 to 19 over the district is far more than one area may hold.
    await user.selectOptions(within(form).getByLabelText('To zoom'), '19');
    expect(within(form).getByRole('alert')).toHaveTextContent(/one area holds at most 30,000/);
    expect(within(form).getByRole('button', { name: 'Download area' })).toBeDisabled();
  });
});
