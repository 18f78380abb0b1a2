import { ZERO_SITE_CODE, type OutboxEntry } from '#shared';
import type { LocalRef } from '#shared/schemas/outbox';
import type { TraplineDb } from './database';
import { newEntry } from './new-entry';
import { entriesOf } from './record-tables';
import { RepositoryError } from './repository-error';

/**
 * The entry of the collection that can still carry its site: a create never sent (pending, or
 * refused and waiting for a fix), else an edit not yet being sent. A create or edit on its way
 * (frozen) is sent as it stands: the move then needs an edit of its own.
 */
function carrierOf(entries: OutboxEntry[]): OutboxEntry | undefined {
  return [...entries]
    .reverse()
    .find((e) =>
      e.op === 'create'
        ? (!e.frozen && e.state === 'pending') || e.state === 'parked'
        : e.op === 'update' && !e.frozen && e.state === 'pending',
    );
}

/**
 * Moves a collection to another site, inside the caller's transaction over collections, sites
 * and outbox (contract §7: its creator or a manager may change it, site included). Returns false
 * when it is already there.
 *
 * Invariants:
 * - the site never enters a payload as an id: it is a reference (`refs`) resolved to the site's
 *   serverId at send time, as on create, and the entry waits on the site's own unsent entries;
 * - at a site other than the Zero Site the collection's location is the site's (contract §6): a
 *   location it carried (from a Zero Site) is dropped from its data and from what is sent, so the
 *   service takes the new site's place instead of keeping the old one.
 */
export async function moveCollectionToSite(
  db: TraplineDb,
  localId: string,
  siteLocalId: string,
): Promise<boolean> {
  const row = await db.collections.get(localId);
  if (!row) throw new RepositoryError('not_found', 'This collection is no longer on this tablet');
  if (row.parentLocalId === siteLocalId) return false;
  const site = await db.sites.get(siteLocalId);
  if (!site || site.deleted) {
    const message = 'The chosen site is no longer on this tablet: choose another';
    throw new RepositoryError('not_found', message, [{ path: 'site', message }]);
  }
  const atZeroSite = site.code === ZERO_SITE_CODE;
  const [siteEntries, entries] = await Promise.all([
    db.outbox.where('localId').equals(siteLocalId).primaryKeys(),
    entriesOf(db, localId),
  ]);
  const ref: LocalRef = { field: 'site', entity: 'site', localId: siteLocalId };
  const withoutPlace = (payload: Record<string, unknown>) => {
    if (atZeroSite) return payload;
    const { location: _dropped, ...rest } = payload;
    return rest;
  };

  const carrier = carrierOf(entries);
  if (carrier) {
    await db.outbox.put({
      ...carrier,
      payload: withoutPlace(carrier.payload),
      refs: [...carrier.refs.filter((r) => r.field !== 'site'), ref],
      // A create waits only on its site; an edit also on what was queued before it.
      dependsOn:
        carrier.op === 'create'
          ? siteEntries
          : [...new Set([...carrier.dependsOn, ...siteEntries])],
    });
  } else {
    await db.outbox.add(
      newEntry(db, {
        entity: 'collection',
        localId,
        op: 'update',
        payload: {},
        refs: [ref],
        dependsOn: [...entries.map((e) => e.id), ...siteEntries],
        baseUpdated: row.baseUpdated,
        baseValues: {},
      }),
    );
  }
  await db.collections.update(localId, {
    parentLocalId: siteLocalId,
    data: withoutPlace(row.data) as typeof row.data,
    updatedAt: Date.now(),
    ...(carrier ? {} : { syncState: 'queued' as const }),
  });
  return true;
}
