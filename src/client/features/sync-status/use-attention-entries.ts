import type { OutboxEntry } from '#shared';
import type { TraplineDb } from '../../db/database';
import { useThrottledLiveQuery } from '../../db/use-throttled-live-query';
import { useI18n } from '../../lib/i18n';
import {
  describeEntry,
  heldBehind,
  readWholeOutbox,
  recordTable,
  type AnyRecordRow,
  type SyncStatus,
} from '../../sync';
import { describeEntryIn } from './describe-entry-in';
import { useSyncEngine, useSyncStatus } from './sync-engine-context';

export type AttentionItem = {
  entry: OutboxEntry;
  record: AnyRecordRow | null;
  /** The changes that wait on this one (nearest first), labelled for the technician. */
  holds: { entry: OutboxEntry; label: string }[];
};

/**
 * How often, at most, the list is read again while the outbox or the records change. A drain
 * changes both with every answer; a list a second late reads the same.
 */
const READ_EVERY_MS = 1_000;

/** What the list is read from: the outbox, and the records that label its entries. */
const TABLES = ['outbox', 'sites', 'collections', 'pools', 'poolTests'] as const;

const recordOf = async (db: TraplineDb, e: OutboxEntry) =>
  (await recordTable(db, e.entity).get(e.localId)) ?? null;

/** Entries with the short labels the technician reads ("New pool of 10"), from their records. */
export function labelEntries(
  db: TraplineDb,
  entries: OutboxEntry[],
  describe: (entry: OutboxEntry, data?: Record<string, unknown> | null) => string = describeEntry,
): Promise<{ entry: OutboxEntry; label: string }[]> {
  return Promise.all(
    entries.map(async (entry) => ({
      entry,
      label: describe(entry, (await recordOf(db, entry))?.data),
    })),
  );
}

/** Whether the engine counts any entry in these states (or has not counted yet). */
function mayHave(status: SyncStatus, states: OutboxEntry['state'][]): boolean {
  if (!status.counted) return true;
  return states.some((s) =>
    s === 'parked' ? status.parked > 0 : s === 'conflict' ? status.conflict > 0 : true,
  );
}

/**
 * Outbox entries in the given states with their records and what they hold back, live (oldest
 * first). The outbox is read whole (what an entry holds back can be anywhere in it), so it is not
 * read at all while the engine counts none in these states, as in a drain that goes well, and
 * otherwise at most once a second (useThrottledLiveQuery).
 */
export function useAttentionEntries(states: OutboxEntry['state'][]): AttentionItem[] | undefined {
  const engine = useSyncEngine();
  const intl = useI18n();
  const look = mayHave(useSyncStatus(), states);
  const key = states.join(',');
  return useThrottledLiveQuery(
    engine.db,
    TABLES,
    async () => {
      if (!look) return [];
      const { db } = engine;
      const all = await readWholeOutbox(db);
      const wanted = new Set(key.split(','));
      const behind = heldBehind(all);
      return Promise.all(
        all
          .filter((entry) => wanted.has(entry.state))
          .map(async (entry) => ({
            entry,
            record: await recordOf(db, entry),
            holds: await labelEntries(db, behind.get(entry.id) ?? [], (e, data) =>
              describeEntryIn(intl, e, data),
            ),
          })),
      );
    },
    // The labels are words of the language shown: another language reads the list again.
    `${key}:${look}:${intl.locale}`,
    READ_EVERY_MS,
  );
}
