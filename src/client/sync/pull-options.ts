import { MAX_PAGE_SIZE } from '#shared/schemas/list';

/**
 * The pull's settings, apart from the pull itself (pull-records.ts): the engine needs them at
 * start, the pull's code only once it pulls, and is loaded then (it is not part of the first
 * screen's JavaScript; the service worker keeps it for offline starts).
 */
export type PullOptions = {
  /** Collections (and their pools) dated within this many days back are pulled. */
  collectionDays: number;
  pageSize: number;
  /**
   * At most one check for deleted records in this many ms: sites (it lists every active site id),
   * and collections and pools of the window (it lists their active ids).
   */
  reconcileEveryMs: number;
};

export const DEFAULT_PULL: PullOptions = {
  collectionDays: 30,
  pageSize: MAX_PAGE_SIZE,
  reconcileEveryMs: 3_600_000,
};
