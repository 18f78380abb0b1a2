export { createSyncEngine, type SyncEngine, type SyncEngineOptions } from './sync-engine';
export { INITIAL_STATUS, type SyncStatus } from './sync-status';
export { SyncError, classify, type SyncErrorReason, type SyncErrorAction } from './sync-error';
export { backoffDelay, DEFAULT_BACKOFF, type BackoffOptions } from './backoff';
export { DependentsNotConfirmedError } from './discard-entry';
export type { ConflictChoices } from './resolve-conflict';
export { describeEntry } from './describe-entry';
export { recordTable, type AnyRecordRow } from './record-tables';
export { serverFieldValue, sameValue } from './field-values';
