import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';

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

export type WatchedPosition = {
  /** Watching the position (asked by the technician, or already allowed in the browser). */
  watching: boolean;
  fix: GpsFix | null;
  message: string | null;
  failure: GpsFailure | null;
  /** Starts watching (the browser asks for permission the first time). */
  start: () => void;
};

const hasGps = () => typeof navigator !== 'undefined' && 'geolocation' in navigator;

/**
 * The tablet's position, kept current while the calling screen is shown. Starts by itself when
 * the browser already allows location (no prompt on opening a screen), else on `start()`.
 */
export function useWatchedPosition(): WatchedPosition {
  const [on, setOn] = useState(false);
  const [seen, setSeen] = useState<{ fix: GpsFix | null; code: number | null; text?: string }>({
    fix: null,
    code: null,
  });
  useEffect(() => {
    let live = true;
    void navigator.permissions
      ?.query({ name: 'geolocation' })
      .then((p) => {
        if (live && p.state === 'granted') setOn(true);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  useEffect(() => {
    if (!on || !hasGps()) return;
    const id = navigator.geolocation.watchPosition(
      (pos) =>
        setSeen({
          fix: {
            lat: pos.coords.latitude,
            lon: pos.coords.longitude,
            accuracy: pos.coords.accuracy,
          },
          code: null,
        }),
      // The last fix stays shown through a timeout or a lost signal: it is where the tablet was.
      (err) =>
        setSeen((s) => ({ fix: err.code === 1 ? null : s.fix, code: err.code, text: err.message })),
      { enableHighAccuracy: true, maximumAge: 5_000, timeout: 30_000 },
    );
    return () => navigator.geolocation.clearWatch(id);
  }, [on]);
  const start = useCallback(() => setOn(true), []);
  if (on && !hasGps())
    return {
      watching: false,
      fix: null,
      message: 'This device has no GPS',
      failure: 'no-gps',
      start,
    };
  return {
    watching: on,
    fix: seen.fix,
    message: seen.code === null ? null : (MESSAGES[seen.code] ?? seen.text ?? null),
    failure: seen.code === null ? null : (FAILURES[seen.code] ?? 'unavailable'),
    start,
  };
}

/** How close a GPS fix must be (metres) to place a site by it, unless changed in Settings. */
const DEFAULT_PLACE_ACCURACY_M = 50;
const PLACE_ACCURACY_KEY = 'trapline.placeAccuracyMeters';
const limitListeners = new Set<() => void>();

/** The accuracy a fix needs to place a site, from this tablet's settings (stored locally). */
function placeAccuracyLimit(): number {
  try {
    const stored = Number(globalThis.localStorage?.getItem(PLACE_ACCURACY_KEY));
    return Number.isFinite(stored) && stored > 0 ? stored : DEFAULT_PLACE_ACCURACY_M;
  } catch {
    return DEFAULT_PLACE_ACCURACY_M;
  }
}

function subscribeLimit(onChange: () => void): () => void {
  limitListeners.add(onChange);
  window.addEventListener('storage', onChange);
  return () => {
    limitListeners.delete(onChange);
    window.removeEventListener('storage', onChange);
  };
}

/** The place-accuracy setting and its setter; every screen showing it follows a change. */
export function usePlaceAccuracyLimit(): [number, (meters: number) => void] {
  const limit = useSyncExternalStore(
    subscribeLimit,
    placeAccuracyLimit,
    () => DEFAULT_PLACE_ACCURACY_M,
  );
  const set = useCallback((meters: number) => {
    try {
      localStorage.setItem(PLACE_ACCURACY_KEY, String(meters));
    } catch {
      // Storage refused (private mode, quota): the setting lasts for this page only.
    }
    for (const listener of limitListeners) listener();
  }, []);
  return [limit, set];
}
