import { act, render, screen } from '@testing-library/react';
import type L from 'leaflet';
import { useEffect, type ReactNode } from 'react';
import { MapContainer, useMap } from 'react-leaflet';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FitToSites } from '../../../../src/client/features/map/fit-to-sites';
import { PositionMarker } from '../../../../src/client/features/map/position-marker';
import { ErrorBoundary } from '../../../../src/client/ui/error-boundary/error-boundary';

const FIX = { lat: 38.6, lon: -121.5, accuracy: 8 };
const SITES: [[number, number], [number, number]] = [
  [38.2, -122.1],
  [39.1, -120.9],
];

/** Hands the test the map, and makes one of its layers fail in every view change after it. */
function FailingLayer({ onMap, failure }: { onMap: (map: L.Map) => void; failure: Error }) {
  const map = useMap();
  onMap(map);
  // Before the effects of the parts after it, which move the map.
  useEffect(() => {
    const fail = () => {
      throw failure;
    };
    map.on('viewreset', fail);
    return () => void map.off('viewreset', fail);
  }, [map, failure]);
  return null;
}

/** The Sites map's part as route-screens.tsx draws it: the map and Where am I in one boundary. */
function MapPart({ following, children }: { following: boolean; children: ReactNode }) {
  return (
    <ErrorBoundary where="map" part="map">
      <MapContainer center={[38.58, -121.49]} zoom={10} style={{ width: 800, height: 600 }}>
        {children}
      </MapContainer>
      <button type="button" aria-pressed={following}>
        Follow me
      </button>
    </ErrorBoundary>
  );
}

describe('a change of view React asks of the map, when a layer of the map throws in it', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('keeps the map and Follow me on screen while following re-centres, and reports the error', () => {
    const reported = vi.fn();
    vi.stubGlobal('reportError', reported);
    const failure = new Error('a layer failed to draw');
    let map: L.Map | undefined;
    const part = (following: boolean) => (
      <MapPart following={following}>
        <FailingLayer onMap={(m) => (map = m)} failure={failure} />
        <PositionMarker fix={FIX} following={following} enough={50} onHandPan={() => undefined} />
      </MapPart>
    );
    const { rerender } = render(part(false));

    act(() => rerender(part(true)));

    // Still on screen, still following, and the map went where the tablet is.
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Follow me' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(map!.getZoom()).toBe(16);
    expect(map!.getCenter().lat).toBeCloseTo(FIX.lat, 5);
    expect(reported).toHaveBeenCalledWith(failure);
  });

  it('keeps the map on screen while the sites are first framed, and reports the error', () => {
    const reported = vi.fn();
    vi.stubGlobal('reportError', reported);
    const failure = new Error('a layer failed to draw');
    let map: L.Map | undefined;
    render(
      <MapPart following={false}>
        <FailingLayer onMap={(m) => (map = m)} failure={failure} />
        <FitToSites bounds={SITES} framed={false} />
      </MapPart>,
    );

    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Follow me' })).toBeInTheDocument();
    expect(map!.getCenter().lat).toBeCloseTo((SITES[0][0] + SITES[1][0]) / 2, 1);
    expect(reported).toHaveBeenCalledWith(failure);
  });
});
