import type { TraplineDb } from '../db/database';
import { whenPageSettled } from '../lib/when-idle';

/**
 * Runs the start's refresh of the lookups and the map's config (`refresh`). A tablet that has
 * the lookups (every start but the first) refreshes once the page has loaded and is idle, as
 * the start's sync does (lib/when-idle `whenPageSettled`, bounded): the lists it has serve
 * meanwhile, and the requests and their parsing stay out of Home's first second (issue 40). A
 * tablet without them (a first sign-in) asks at once: no form can be filled until they come,
 * and the technician may walk out of coverage right after signing in. Returns a cancel function.
 */
export function refreshListsAtStart(db: TraplineDb, refresh: () => void): () => void {
  let cancelled = false;
  let cancelWait = () => undefined as void;
  // A count reads the key only, not the document.
  db.lookups.count().then(
    (kept) => {
      if (cancelled) return;
      if (kept > 0) cancelWait = whenPageSettled(refresh);
      else refresh();
    },
    () => {
      if (!cancelled) refresh();
    },
  );
  return () => {
    cancelled = true;
    cancelWait();
  };
}
