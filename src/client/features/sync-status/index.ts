export { SyncEngineProvider, useSyncEngine, useSyncStatusOf } from './sync-engine-context';
export { SyncStatusBar } from './sync-status-bar';
export { RecordSyncBadge, StoredRecordSyncBadge } from './record-sync-badge';
// ParkedEntries (parked-entries.tsx) and ConflictResolver (conflict-resolver.tsx) are imported
// by their own paths, lazily: the Sync screen is not part of the first load.
