export { SyncEngineProvider, useSyncEngine, useSyncStatus } from './sync-engine-context';
export { SyncStatusBar } from './sync-status-bar';
export { RecordSyncBadge } from './record-sync-badge';
export { ParkedEntries } from './parked-entries';
export { ConflictResolver } from './conflict-resolver';
