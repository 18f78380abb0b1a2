import type { HistoryEntity } from '#shared/schemas/history';

export { HISTORY_ENTITIES, type HistoryAction, type HistoryEntity } from '#shared/schemas/history';

/** The table each entity of the history lives in (`entity=test` is a pool test). */
export const HISTORY_TABLE: Record<HistoryEntity, string> = {
  site: 'site',
  collection: 'collection',
  pool: 'pool',
  test: 'pool_test',
};
