/**
 * Populate helpers for lookups and accounts (contract §4 shapes), shared by every resource.
 *
 * - `loadShapes(db, kind, ids)` → Map id → shape, one query.
 * - `populateRefs(db, records, field, kind)` replaces `record[field]` (id or id array) by shapes
 *   in place, e.g. `await populateRefs(db, rows, 'trap', 'trap')`,
 *   `await populateRefs(db, rows, 'user', 'user')` → `{id, username, name}` (never a hash).
 * - `listLookup(db, kind, url, expansion?)` → `{rows, count}`: a `/v1/<lookup>` list, paged and
 *   filtered with the shared list parameters (contract §4, §5); `expansion` adds populate names.
 * - `populateLureTypes(db, records)`: `populate[]=lures`, the lure types in place of the link records.
 * - `unknownLookupIdsByKind(db, idsByKind)`: ids that are
 *   unknown or inactive → your 422 naming the field.
 * - `unknownAmong(idsByKind, found)`: the same answer from entries found another way (a
 *   create's lookups held in memory, records/common/lookup-catalog.ts).
 *
 * Kinds and shapes: species `{id, full_name, display_name, type}`, sex `{id, name, type}`,
 * trap `{id, acronym, name, presence}`, lure `{id, code, description, weight}`,
 * agency `{id, code, name, state_acronym, region}`, region `{id, name, namelsad, type, geoid,
 * parent}`, user `{id, username, name}`, coordinate_precision `{id, name, meters}`,
 * land_usage `{id, name}`, test_method `{id, name, acronym, sensitivity}`,
 * test_target `{id, acronym, name, vector, icd_10}`, test_status `{id, name, description}`.
 */
export { listLookup, type LookupExpansion } from './list-lookup';
export { populateLureTypes } from './populate-lure-types';
export {
  loadShapes,
  populateRefs,
  unknownLookupIdsByKind,
  unknownAmong,
  type ShapeKind,
} from './lookup-shapes';
