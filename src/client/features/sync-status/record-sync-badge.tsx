import type { SyncState } from '#shared';
import { useI18n } from '../../lib/i18n';
import { useSyncStatusOf } from './sync-engine-context';

/** Words first (colour is only a second cue); every pair has a contrast ratio above 7:1. */
const BADGES: Record<
  SyncState,
  { label: string; color: string; background: string; mark: string }
> = {
  queued: { label: 'Saved on tablet', color: '#78350f', background: '#fef3c7', mark: '●' },
  syncing: { label: 'Sending', color: '#1e3a8a', background: '#dbeafe', mark: '↑' },
  synced: { label: 'Synced', color: '#14532d', background: '#dcfce7', mark: '✓' },
  failed: { label: 'Needs attention', color: '#7f1d1d', background: '#fee2e2', mark: '!' },
  conflict: { label: 'Conflict', color: '#4c1d95', background: '#ede9fe', mark: '⇄' },
};

/** Where a record stands with the server: Saved on tablet, Sending, Synced, Needs attention, Conflict. */
export function RecordSyncBadge({ state }: { state: SyncState }) {
  const badge = BADGES[state] ?? BADGES.queued;
  const intl = useI18n();
  return (
    <span
      className={`sync-badge sync-badge-${state}`}
      data-sync-state={state}
      style={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: '0.3em',
        padding: '0.15em 0.6em',
        borderRadius: '999px',
        fontSize: '0.875rem',
        fontWeight: 600,
        color: badge.color,
        background: badge.background,
        border: `1px solid ${badge.color}`,
        whiteSpace: 'nowrap',
      }}
    >
      <span aria-hidden="true">{badge.mark}</span>
      {intl.formatMessage(
        {
          id: 'badge.state',
          defaultMessage:
            '{state, select, syncing {Sending} synced {Synced} failed {Needs attention} conflict {Conflict} other {Saved on tablet}}',
        },
        { state: badge === BADGES.queued ? 'queued' : state },
      )}
    </span>
  );
}

/**
 * A stored record's badge: its stored state, and "Sending" while this tab's engine sends one of
 * its entries (SyncStatus.sendingRecords: kept in memory, never written to the record). A state
 * 'syncing' stored by an earlier version of the app is shown as saved when nothing is sent.
 */
export function StoredRecordSyncBadge({
  record,
}: {
  record: { localId: string; syncState: SyncState };
}) {
  // Only whether this record is being sent: not drawn again at every answer of a drain.
  const sending = useSyncStatusOf((status) => status.sendingRecords.has(record.localId));
  const stored = record.syncState === 'syncing' ? 'queued' : record.syncState;
  return <RecordSyncBadge state={sending ? 'syncing' : stored} />;
}
