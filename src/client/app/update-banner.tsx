import { useEffect, useRef, useState } from 'react';
import { anyFormDirty } from '../lib/dirty-forms';
import { Banner } from '../ui/banner';

type Updater = (reloadPage?: boolean) => Promise<void>;

/**
 * "Update available — Reload". A new version never activates by itself: the technician decides,
 * and while a form holds unsaved typing the reload is refused with a reason.
 */
export function UpdateBanner() {
  const [needRefresh, setNeedRefresh] = useState(false);
  const [blocked, setBlocked] = useState(false);
  const update = useRef<Updater | null>(null);
  useEffect(() => {
    if (import.meta.env.MODE === 'test' || !('serviceWorker' in navigator)) return;
    let cancelled = false;
    void import('virtual:pwa-register')
      .then(({ registerSW }) => {
        if (cancelled) return;
        update.current = registerSW({ onNeedRefresh: () => setNeedRefresh(true) });
      })
      .catch(() => {
        // No service worker in this build (dev server): nothing to update.
      });
    return () => {
      cancelled = true;
    };
  }, []);
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
