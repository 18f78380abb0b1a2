import { useEffect, useRef, useState } from 'react';
import { anyFormDirty } from '../lib/dirty-forms';
import { Banner } from '../ui/banner';

type Updater = (reloadPage?: boolean) => Promise<void>;
/** `registerSW` of vite-plugin-pwa: registers the service worker, reports a waiting version. */
export type RegisterServiceWorker = (options: { onNeedRefresh: () => void }) => Updater;

const registerFromPlugin = async (): Promise<RegisterServiceWorker | null> => {
  if (import.meta.env.MODE === 'test' || !('serviceWorker' in navigator)) return null;
  // No service worker in the dev server build: nothing to update.
  return import('virtual:pwa-register').then((m) => m.registerSW).catch(() => null);
};

/**
 * "Update available — Reload". A new version never activates by itself: the technician decides,
 * and while a form holds unsaved typing the reload is refused with a reason.
 */
export function UpdateBanner({
  register = registerFromPlugin,
}: {
  /** Where the service worker registration comes from (tests pass their own). */
  register?: () => Promise<RegisterServiceWorker | null>;
}) {
  const [needRefresh, setNeedRefresh] = useState(false);
  const [blocked, setBlocked] = useState(false);
  const update = useRef<Updater | null>(null);
  useEffect(() => {
    let cancelled = false;
    void register().then((registerSW) => {
      if (cancelled || !registerSW) return;
      update.current = registerSW({ onNeedRefresh: () => setNeedRefresh(true) });
    });
    return () => {
      cancelled = true;
    };
  }, [register]);
  if (!needRefresh) return null;
  const reload = () => {
    if (anyFormDirty()) {
      setBlocked(true);
      return;
    }
    void update.current?.(true);
  };
  return (
    <Banner
      tone="info"
      actions={
        <button type="button" className="button" onClick={reload}>
          Reload
        </button>
      }
    >
      Update available — Reload to use the new version.
      {blocked ? <strong> Finish or save this form first.</strong> : null}
    </Banner>
  );
}
