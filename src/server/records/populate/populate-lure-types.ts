import type { Queryable, Row } from '../../db/database';
import { populateRefs } from './lookup-shapes';

/**
 * `populate[]=lures` (contract §4): replaces each record's `lures`, lure link records
 * `{id, …, lure}` (or lure type ids), by the lure types themselves `{id, code, description,
 * weight}`, in the link records' order, in one query. The public R client unnests them into
 * `lures_code`, `lures_description` and `lures_weight`; the link records stay the unpopulated form.
 */
export async function populateLureTypes(db: Queryable, records: Row[]): Promise<void> {
  for (const r of records) {
    const lures = Array.isArray(r.lures) ? (r.lures as unknown[]) : [];
    r.lures = lures.map((l) => (typeof l === 'number' ? l : (l as Row | null)?.lure));
  }
  await populateRefs(db, records, 'lures', 'lure');
}
