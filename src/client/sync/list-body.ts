import { listedRows } from '#shared';
import type { PulledRow } from './store-pulled-rows';

/**
 * A list page's body, as sent, read into its rows and the list's `count` (null when the upstream
 * gives none). Accepts `{rows, count?}` or a bare array; a body that is no list counts as an empty
 * page (the walk then ends). The same in the page and in the pull writer worker.
 */
export function readListBody(text: string): { rows: PulledRow[]; count: number | null } {
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return listedRows(body) ?? { rows: [], count: null };
}
