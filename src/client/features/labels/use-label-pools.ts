import { useLiveQuery } from 'dexie-react-hooks';
import { useDb } from '../../db/db-context';
import { useLookups } from '../../db/use-lookups';
import { readLabelPools, type LabelPool, type PoolSelection } from './read-label-pools';

/**
 * The selection's pools, live: a pool numbered by a sync while the sheet is open gets its number
 * and its QR code at once, without reopening the screen.
 */
export function useLabelPools(selection: PoolSelection | null): LabelPool[] | undefined {
  const db = useDb();
  const { lookups } = useLookups();
  const key = selection ? JSON.stringify(selection) : '';
  return useLiveQuery(
    async () => (selection ? readLabelPools(db, selection, lookups) : []),
    // The selection by value (its key): a new object each render must not read again.
    [db, key, lookups],
  );
}
