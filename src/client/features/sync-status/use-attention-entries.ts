import { useLiveQuery } from 'dexie-react-hooks';
import type { OutboxEntry } from '../../../shared';
import { recordTable, type AnyRecordRow } from '../../sync';
import { useSyncEngine } from './sync-engine-context';

export type AttentionItem = { entry: OutboxEntry; record: AnyRecordRow | null };

/** Outbox entries in the given states with their records, live (oldest first). */
export function useAttentionEntries(states: OutboxEntry['state'][]): AttentionItem[] | undefined {
  const engine = useSyncEngine();
  const key = states.join(',');
  return useLiveQuery(async () => {
    const entries = await engine.db.outbox.where('state').anyOf(key.split(',')).sortBy('createdAt');
    return Promise.all(
      entries.map(async (entry) => ({
        entry,
        record: (await recordTable(engine.db, entry.entity).get(entry.localId)) ?? null,
      })),
    );
  }, [engine, key]);
}
