import { act, render, screen } from '@testing-library/react';
import type L from 'leaflet';
import { MapContainer, useMap } from 'react-leaflet';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SavedMapNote } from '../../../../src/client/features/map-areas/saved-map-note';
import { connection } from '../../../../src/client/lib/connection';

/** Hands the test the map, to move it as a drag or a zoom would. */
function TheMap({ onMap }: { onMap: (map: L.Map) => void }) {
  onMap(useMap());
  return null;
}

const NOTE = /No saved map here/;

describe("the map's 'no saved map here' note", () => {
  afterEach(() => {
    connection.reset();
    vi.restoreAllMocks();
  });

  it('reads no saved areas while online, however the map moves; offline, it says so at once', () => {
    const reads = vi.spyOn(Storage.prototype, 'getItem');
    const areaReads = () => reads.mock.calls.filter(([key]) => key === 'trapline.mapAreas').length;
    let map: L.Map | undefined;
    render(
      <MapContainer center={[38.58, -121.49]} zoom={12} style={{ width: 800, height: 600 }}>
        <TheMap onMap={(m) => (map = m)} />
        <SavedMapNote />
      </MapContainer>,
    );
    expect(map).toBeDefined();
    // Online: each move's end costs nothing (it read and validated the list every time).
    for (let i = 0; i < 5; i += 1) {
      act(() => {
        map!.fire('moveend');
        map!.fire('zoomend');
      });
    }
    expect(areaReads()).toBe(0);
    expect(screen.queryByText(NOTE)).not.toBeInTheDocument();

    // Offline with no area saved: said over the map at once, and still after a move.
    act(() => connection.browserWentOffline());
    expect(screen.getByRole('status')).toHaveTextContent(NOTE);
    act(() => {
      map!.fire('moveend');
    });
    expect(screen.getByRole('status')).toHaveTextContent(NOTE);
    expect(areaReads()).toBeGreaterThan(0);

    // Back online: gone.
    act(() => connection.track()('answered'));
    expect(screen.queryByText(NOTE)).not.toBeInTheDocument();
  });
});
