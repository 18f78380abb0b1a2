import { useEffect, useState } from 'react';
import type { TraplineDb } from '../db/database';
import { Banner } from '../ui/banner';

const reloadWindow = () => window.location.reload();

/**
 * Whether a newer version of the app, in another tab, took this tab's database over (see
 * TraplineDb.superseded). Once true it stays true until the page reloads.
 */
export function useSuperseded(db: TraplineDb): boolean {
  const [superseded, setSuperseded] = useState(db.superseded);
  useEffect(() => {
    setSuperseded(db.superseded);
    return db.onSuperseded(() => setSuperseded(true));
  }, [db]);
  return superseded;
}

/**
 * "Updated in another tab — Reload". This tab can no longer read or save on the tablet; what was
 * saved before (queued changes included) stays there, and the reloaded app sends it.
 */
export function SupersededBanner({ reloadPage = reloadWindow }: { reloadPage?: () => void }) {
  return (
    <Banner
      tone="error"
      actions={
        <button type="button" className="button" onClick={reloadPage}>
          Reload
        </button>
      }
    >
      The app was updated in another tab. Reload to go on: everything saved on this tablet is kept
      and will be sent.
    </Banner>
  );
}
