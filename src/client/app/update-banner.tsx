import { useEffect, useRef, useState } from 'react';
import { anyFormDirty } from '../ui/form/dirty-forms';
import { Banner } from '../ui/banner';
import { useI18n } from '../lib/i18n';

type Updater = (reloadPage?: boolean) => Promise<void>;
/**
 * `registerSW` of vite-plugin-pwa (2.0.0, prompt mode): registers the service worker, reports a
 * waiting version (`onNeedRefresh`), and once a new version controls the page (activated from this
 * tab or from another one) calls `onNeedReload`; without `onNeedReload` it reloads the page itself.
 */
export type RegisterServiceWorker = (options: {
  onNeedRefresh: () => void;
  onNeedReload: () => void;
}) => Updater;

const registerFromPlugin = async (): Promise<RegisterServiceWorker | null> => {
  if (import.meta.env.MODE === 'test' || !('serviceWorker' in navigator)) return null;
  // No service worker in the dev server build: nothing to update.
  return import('virtual:pwa-register').then((m) => m.registerSW).catch(() => null);
};

const reloadWindow = () => window.location.reload();

/**
 * "Update available — Reload". A new version never activates by itself: the technician decides,
 * and while a form holds unsaved typing the reload is refused with a reason. When another tab
 * activates the new version, this tab reloads only if no form here holds unsaved typing;
 * otherwise it says so and waits for the technician.
 */
export function UpdateBanner({
  register = registerFromPlugin,
  reloadPage = reloadWindow,
}: {
  /** Where the service worker registration comes from (tests pass their own). */
  register?: () => Promise<RegisterServiceWorker | null>;
  /** Reloads the page into the new version (tests pass their own). */
  reloadPage?: () => void;
}) {
  const [needRefresh, setNeedRefresh] = useState(false);
  const intl = useI18n();
  /** The new version already controls this tab (activated here or in another tab). */
  const [active, setActive] = useState(false);
  const [blocked, setBlocked] = useState(false);
  const update = useRef<Updater | null>(null);
  const reloadRef = useRef(reloadPage);
  useEffect(() => {
    reloadRef.current = reloadPage;
  }, [reloadPage]);
  useEffect(() => {
    let cancelled = false;
    void register().then((registerSW) => {
      if (cancelled || !registerSW) return;
      update.current = registerSW({
        onNeedRefresh: () => setNeedRefresh(true),
        // Passing this stops the plugin from reloading on its own, which would throw away a
        // half-filled form in a tab where the technician never tapped Reload.
        onNeedReload: () => {
          if (anyFormDirty()) setActive(true);
          else {
            // Said in the console: which of the app's reloads this was (support; e2e page logs).
            console.warn('Trapline reloads the page: a new version of the app now controls it.');
            reloadRef.current();
          }
        },
      });
    });
    return () => {
      cancelled = true;
    };
  }, [register]);
  const t = intl.formatMessage;
  if (!needRefresh && !active) return null;
  const reload = () => {
    if (anyFormDirty()) {
      setBlocked(true);
      return;
    }
    if (active) reloadPage();
    else void update.current?.(true);
  };
  return (
    <Banner
      tone="info"
      actions={
        <button type="button" className="button" onClick={reload}>
          {t({ id: 'update.reload', defaultMessage: 'Reload' })}
        </button>
      }
    >
      {active
        ? t({
            id: 'update.active',
            defaultMessage: 'A new version is active — reload after saving.',
          })
        : t({
            id: 'update.available',
            defaultMessage: 'Update available — Reload to use the new version.',
          })}
      {blocked ? (
        <strong>
          {' '}
          {t({ id: 'update.saveFirst', defaultMessage: 'Finish or save this form first.' })}
        </strong>
      ) : null}
    </Banner>
  );
}
