import type { TraplineDb } from '../db/database';
import { useDbGone } from '../db/use-db-gone';
import { Banner } from '../ui/banner';
import { useI18n } from '../lib/i18n';

const reloadWindow = () => window.location.reload();

/**
 * Whether a newer version of the app, in another tab, took this tab's database over (see
 * TraplineDb.superseded), or the browser closed it under the app (TraplineDb.storageLost): this
 * tab can no longer use it. Once true it stays true until the page reloads.
 */
export function useSuperseded(db: TraplineDb): boolean {
  return useDbGone(db) !== null;
}

/**
 * "Updated in another tab — Reload". This tab can no longer read or save on the tablet; what was
 * saved before (queued changes included) stays there, and the reloaded app sends it.
 */
export function SupersededBanner({ reloadPage = reloadWindow }: { reloadPage?: () => void }) {
  const intl = useI18n();
  return (
    <Banner
      tone="error"
      actions={
        <button type="button" className="button" onClick={reloadPage}>
          {intl.formatMessage({ id: 'update.reload', defaultMessage: 'Reload' })}
        </button>
      }
    >
      {intl.formatMessage({
        id: 'superseded.body',
        defaultMessage:
          'The app was updated in another tab. Reload to go on: everything saved on this tablet is kept and will be sent.',
      })}
    </Banner>
  );
}

/**
 * The browser cleared the app's stored data on this tablet (its "clear site data"), or could not
 * keep it (TraplineDb.storageLost). Nothing can bring it back from here: said plainly, never
 * "saved" or "all sent", so the technician checks what they entered since the last full sync.
 */
export function StorageLostBanner({ reloadPage = reloadWindow }: { reloadPage?: () => void }) {
  const intl = useI18n();
  return (
    <Banner
      tone="error"
      actions={
        <button type="button" className="button" onClick={reloadPage}>
          {intl.formatMessage({ id: 'update.reload', defaultMessage: 'Reload' })}
        </button>
      }
    >
      {intl.formatMessage({
        id: 'storageLost.body',
        defaultMessage:
          "The browser cleared this app's data on this tablet, or could not keep it. Changes not sent yet may be gone from this tablet: check what you entered since the last full sync, then reload.",
      })}
    </Banner>
  );
}
