import { useLiveQuery } from 'dexie-react-hooks';
import type { OutboxEntry } from '../../../shared';
import type { TraplineDb } from '../../db/database';
import { describeEntry, heldBehind, recordTable, type AnyRecordRow } from '../../sync';
import { useSyncEngine } from './sync-engine-context';

export type AttentionItem = {
  entry: OutboxEntry;
  record: AnyRecordRow | null;
  /** The changes that wait on this one (nearest first), labelled for the technician. */
  holds: { entry: OutboxEntry; label: string }[];
};

const recordOf = async (db: TraplineDb, e: OutboxEntry) =>
  (await recordTable(db, e.entity).get(e.localId)) ?? null;

/** Entries with the short labels the technician reads ("New pool of 10"), from their records. */
export function labelEntries(
  db: TraplineDb,
  entries: OutboxEntry[],
): Promise<{ entry: OutboxEntry; label: string }[]> {
  return Promise.all(
    entries.map(async (entry) => ({
      entry,
      label: describeEntry(entry, (await recordOf(db, entry))?.data),
    })),
  );
}

/** Outbox entries in the given states with their records and what they hold back, live (oldest first). */
export function useAttentionEntries(states: OutboxEntry['state'][]): AttentionItem[] | undefined {
  const engine = useSyncEngine();
  const key = states.join(',');
  return useLiveQuery(async () => {
    const { db } = engine;
    const all = await db.outbox.orderBy('createdAt').toArray();
    const wanted = new Set(key.split(','));
    const behind = heldBehind(all);
    return Promise.all(
      all
        .filter((entry) => wanted.has(entry.state))
        .map(async (entry) => ({
          entry,
          record: await recordOf(db, entry),
          holds: await labelEntries(db, behind.get(entry.id) ?? []),
        })),
    );
  }, [engine, key]);
}
