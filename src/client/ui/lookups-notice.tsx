import type { ReactNode } from 'react';
import { useI18n } from '../lib/i18n';
import { Banner } from './banner';

/**
 * Says why drop-downs are empty: the lists (species, traps, lures…) were never downloaded on this
 * tablet, e.g. the first sign-in could not fetch them. Renders nothing once they are stored, or
 * while the cache is still being read (`loaded` false), so it never flashes on a good tablet.
 */
export function LookupsNotice({
  loaded,
  storedAt,
  action,
}: {
  /** The cache has been read (from `useLookups`). */
  loaded: boolean;
  /** When the lists were stored, null if never. */
  storedAt: number | null;
  /** A Refresh button, where the screen can offer one. */
  action?: ReactNode;
}) {
  const intl = useI18n();
  if (!loaded || storedAt !== null) return null;
  return (
    <Banner tone="warn" actions={action}>
      {action
        ? intl.formatMessage({
            id: 'lookups.notDownloaded',
            defaultMessage: 'Lists not downloaded yet — connect and tap Refresh.',
          })
        : intl.formatMessage({
            id: 'lookups.notDownloadedForm',
            defaultMessage:
              'Lists not downloaded yet — connect, then tap Refresh on Home. What you type here is kept.',
          })}
    </Banner>
  );
}
