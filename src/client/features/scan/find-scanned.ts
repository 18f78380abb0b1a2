import { decodeScannedCode } from '#shared/labels/scan-code';
import type { SiteRow, TraplineDb } from '../../db/database';

/**
 * Where a scanned code leads, looked up on the tablet only (Dexie), so it works offline:
 * - a pool label → that pool's test result entry (`/pools/<localId>/tests/new`);
 * - a site tag (Trapline's QR, the site's code or its exact name) → a new collection there.
 * Anything else says why nothing opened; the camera keeps scanning.
 */
export type ScanOutcome =
  | { kind: 'open'; path: string }
  | { kind: 'other-agency' }
  | { kind: 'pool-missing'; poolNumber: number }
  | { kind: 'pool-deleted'; poolNumber: number }
  | { kind: 'site-missing' }
  | { kind: 'unknown'; text: string };

/** A site a collection may start at now: not deleted, not deactivated. */
const usable = (s: SiteRow) => !s.deleted && !s.server?.deactive_date && !s.data.deactive_date;

function siteOutcome(sites: SiteRow[]): ScanOutcome | null {
  const open = sites.filter(usable);
  // One usable site only: a code's revisions never overlap (contract §6), names may repeat.
  return open.length === 1
    ? { kind: 'open', path: `/collections/new?site=${open[0].localId}` }
    : null;
}

export async function findScanned(
  db: TraplineDb,
  text: string,
  agencyId: number,
): Promise<ScanOutcome> {
  const code = decodeScannedCode(text);
  switch (code.kind) {
    case 'pool': {
      if (code.agency !== agencyId) return { kind: 'other-agency' };
      const pool = await db.pools.where('serverId').equals(code.poolId).first();
      if (!pool) return { kind: 'pool-missing', poolNumber: code.poolNumber };
      if (pool.deleted || pool.server?.deactive_date)
        return { kind: 'pool-deleted', poolNumber: code.poolNumber };
      return { kind: 'open', path: `/pools/${pool.localId}/tests/new` };
    }
    case 'site': {
      if (code.agency !== agencyId) return { kind: 'other-agency' };
      const site = await db.sites.where('serverId').equals(code.siteId).first();
      return (site && siteOutcome([site])) ?? { kind: 'site-missing' };
    }
    case 'site-code':
      return (
        siteOutcome(await db.sites.where('code').equals(code.code).toArray()) ?? {
          kind: 'site-missing',
        }
      );
    case 'text':
      return (
        siteOutcome(await db.sites.where('name').equalsIgnoreCase(code.text).toArray()) ?? {
          kind: 'unknown',
          text: code.text,
        }
      );
    case 'invalid':
      return { kind: 'unknown', text: code.text };
  }
}
