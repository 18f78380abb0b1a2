import { useCallback, useState } from 'react';

export type GpsFix = { lat: number; lon: number; accuracy: number };
export type GpsFailure = 'denied' | 'unavailable' | 'timeout' | 'no-gps';
export type GpsState = {
  status: 'idle' | 'locating' | 'done' | 'error';
  fix: GpsFix | null;
  message: string | null;
  /** Why the last request failed, for screens that word it their own way. */
  failure?: GpsFailure | null;
};

const FAILURES: Record<number, GpsFailure> = { 1: 'denied', 2: 'unavailable', 3: 'timeout' };

const MESSAGES: Record<number, string> = {
  1: 'Location permission was refused: allow it in the browser settings, or tap the map or type the coordinates',
  2: 'No position available here: tap the map or type the coordinates',
  3: 'The GPS took too long: try again in the open, or type the coordinates',
};

/** One GPS fix on request ("Use my location"), with the accuracy the device reports. */
export function useGps(): GpsState & { locate: () => Promise<GpsFix | null> } {
  const [state, setState] = useState<GpsState>({ status: 'idle', fix: null, message: null });
  const locate = useCallback(
    () =>
      new Promise<GpsFix | null>((resolve) => {
        if (!('geolocation' in navigator)) {
          setState({
            status: 'error',
            fix: null,
            message: 'This device has no GPS: tap the map or type the coordinates',
            failure: 'no-gps',
          });
          resolve(null);
          return;
        }
        setState((s) => ({ ...s, status: 'locating', message: null, failure: null }));
        navigator.geolocation.getCurrentPosition(
          (pos) => {
            const fix = {
              lat: pos.coords.latitude,
              lon: pos.coords.longitude,
              accuracy: pos.coords.accuracy,
            };
            setState({ status: 'done', fix, message: null });
            resolve(fix);
          },
          (err) => {
            setState({
              status: 'error',
              fix: null,
              message: MESSAGES[err.code] ?? err.message,
              failure: FAILURES[err.code] ?? 'unavailable',
            });
            resolve(null);
          },
          { enableHighAccuracy: true, timeout: 20_000, maximumAge: 10_000 },
        );
      }),
    [],
  );
  return { ...state, locate };
}
