/**
 * The outbox sync engine. Compose it once per signed-in user (its database is per user):
 *
 *   const engine = createSyncEngine(openUserDb(owner));
 *   engine.start();                 // app start: drains, then pulls sites and recent collections
 *   engine.requestSync('save');     // after a repository saved a record and its outbox entry
 *   engine.requestSync();           // "Sync now" (also skips backoff waits, not Retry-After)
 *   engine.resume();                // after the user signed in again (a 401 paused the queue)
 *   engine.stop();                  // sign-out
 *
 * and give it to <SyncEngineProvider engine={engine}> (features/sync-status).
 */
export { createSyncEngine, type SyncEngine, type SyncEngineOptions } from './sync-engine';
export { INITIAL_STATUS, heldBehind, syncSummary, type SyncStatus } from './sync-status';
export { SyncError, classify } from './sync-error';
export { backoffDelay, DEFAULT_BACKOFF, type BackoffOptions } from './backoff';
export { DependentsNotConfirmedError } from './sync-error';
export { isOutcomeUnknown } from '#shared';
export { describeEntry } from './describe-entry';
export { readWholeOutbox } from './outbox-reader';
export { recordTable, type AnyRecordRow } from '../db/record-tables';
export { serverFieldValue, sameValue } from '../db/field-values';
