import { refId } from '#shared';
import type { CollectionRow } from '../../db/database';
import { loadIdentity } from '../../lib/identity';

/**
 * Whether the signed-in user may change this collection, its site included (contract §7: a
 * manager any of the agency's records, anyone else the records they created). One never sent is
 * the tablet user's own. An identity that does not say its role, or a server copy that does not
 * name its author, cannot tell: allowed, and the service has the last word.
 */
export function mayChangeCollection(collection: Pick<CollectionRow, 'serverId' | 'server'>) {
  const me = loadIdentity()?.user;
  if (!me?.role || me.role !== 'technician' || collection.serverId === null) return true;
  const author = refId(collection.server?.user as number | { id: number } | null | undefined);
  return author === null || me.id === null || author === me.id;
}
