import { PARENT_FIELD } from './database';
import { lureTypeIds, type Entity, type LureRecord } from '#shared';

/** Fields the service sets itself: never part of a record's editable data. */
const SERVER_ONLY = new Set([
  'id',
  'add_date',
  'updated',
  'delete_date',
  'deactive_date',
  'agency',
  'user',
  'crs',
  'primary_source',
]);

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const ISO_MIDNIGHT = /^(\d{4}-\d{2}-\d{2})T00:00:00\.000Z$/;
// No leading zeros: a site code such as "012345" is a string, not the number 12345.
const NUMERIC = /^-?(0|[1-9]\d*)(\.\d+)?$/;

/**
 * One comparable form of a field value, whatever shape the service returned it in: a populated
 * record becomes its id, a numeric string (elevation) a number, a UTC midnight date-time its date,
 * a lure record its lure id, an abundance row {species, sex, num_count}.
 */
export function normalizeValue(value: unknown, strings = true): unknown {
  if (value === undefined) return null;
  if (typeof value === 'string' && !strings) return value;
  if (typeof value === 'string') {
    if (NUMERIC.test(value)) return Number(value);
    if (!ISO_DATE_TIME.test(value)) return value;
    const time = Date.parse(value);
    if (Number.isNaN(time)) return value;
    const iso = new Date(time).toISOString();
    // A date-only input and the service's UTC-midnight output are the same day.
    return ISO_MIDNIGHT.exec(iso)?.[1] ?? iso;
  }
  if (Array.isArray(value)) return value.map((v) => normalizeValue(v, strings));
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    // A lure record, with or without table_name, its lure as an id or populated: the lure type.
    if (isLureRecord(obj)) return lureTypeIds([obj])[0];
    if ('species' in obj && 'sex' in obj && 'num_count' in obj) {
      return {
        species: normalizeValue(obj.species, strings),
        sex: normalizeValue(obj.sex, strings),
        num_count: obj.num_count,
      };
    }
    if ('shape' in obj) {
      return {
        shape: normalizeValue(obj.shape, strings),
        coordinate_precision: normalizeValue(obj.coordinate_precision, strings),
      };
    }
    if ('type' in obj && 'coordinates' in obj)
      return { type: obj.type, coordinates: obj.coordinates };
    if ('id' in obj && typeof obj.id === 'number') return obj.id;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(obj).sort()) out[key] = normalizeValue(obj[key], strings);
    return out;
  }
  return value;
}

/** `{id, lure}` where lure is a lure type id or a populated lure `{id, ...}`. */
function isLureRecord(obj: Record<string, unknown>): obj is LureRecord {
  const lure = obj.lure;
  return (
    typeof lure === 'number' ||
    (lure !== null && typeof lure === 'object' && typeof (lure as { id?: unknown }).id === 'number')
  );
}

/** Lure type ids of a `lures` value in any tolerated shape (ids, lure records). */
function lureIdsOf(value: unknown): unknown {
  if (!Array.isArray(value)) return normalizeValue(value, false);
  return lureTypeIds(
    value.filter(
      (l): l is number | LureRecord =>
        typeof l === 'number' || (l !== null && typeof l === 'object' && isLureRecord(l)),
    ),
  );
}

/** Whether two field values mean the same thing (see normalizeValue). */
export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(normalizeValue(a)) === JSON.stringify(normalizeValue(b));
}

/** Active abundance rows and lures only: deactivated rows are history, not the current record. */
function activeRows(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.filter(
    (r) => !(r && typeof r === 'object' && (r as { deactive_date?: unknown }).deactive_date),
  );
}

/**
 * Numbers the service may return as numeric strings: a site's elevation (contract §3) and a pool
 * test's value (Ct), which schemas/pool-test.ts tolerates as text. Kept as numbers, as sent.
 */
const NUMBERS_MAY_COME_AS_TEXT = new Set(['elevation', 'value']);
/** A decimal number as text, leading zeros allowed (schemas/common.ts `numericLoose`). */
const DECIMAL_TEXT = /^\s*-?\d+(\.\d+)?\s*$/;

/**
 * A server record in the shape of `LocalRecord.data` (the create/update request shape): server-only
 * fields dropped, populated references as ids, and the parent field left out (it is carried by
 * `parentLocalId`).
 */
export function serverToData(
  entity: Entity,
  server: Record<string, unknown>,
): Record<string, unknown> {
  const parentField = PARENT_FIELD[entity]?.field;
  const data: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(server)) {
    if (SERVER_ONLY.has(key) || key === parentField || value === undefined) continue;
    if (key === 'lures') {
      data[key] = lureIdsOf(activeRows(value));
    } else if (key === 'arthropods') {
      data[key] = normalizeValue(activeRows(value), false);
    } else if (
      NUMBERS_MAY_COME_AS_TEXT.has(key) &&
      typeof value === 'string' &&
      DECIMAL_TEXT.test(value)
    ) {
      data[key] = Number(value);
    } else data[key] = normalizeValue(value, false);
  }
  return data;
}

/** The server's value of a field of the data shape (see serverToData). */
export function serverFieldValue(
  entity: Entity,
  server: Record<string, unknown> | null,
  field: string,
): unknown {
  if (!server) return null;
  return (
    serverToData(entity, server)[field] ??
    (field === PARENT_FIELD[entity]?.field ? normalizeValue(server[field]) : null)
  );
}
