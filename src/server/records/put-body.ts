import { numericLoose, refId } from '#shared/schemas/common';

export type PutResource = 'site' | 'collection' | 'pool' | 'poolTest';

type Json = Record<string, unknown>;

/**
 * Fields a response carries that a client cannot set. Contract §6: they are ignored on PUT, so a
 * record read with GET can be sent back unchanged (POST still rejects them: it never sees this).
 */
const RESPONSE_ONLY: Record<PutResource, readonly string[]> = {
  site: ['id', 'add_date', 'updated', 'delete_date', 'original_location'],
  collection: ['id', 'add_date', 'updated', 'deactive_date', 'pools'],
  pool: [
    'id',
    'add_date',
    'updated',
    'deactive_date',
    'primary_source',
    'surv_year',
    'location',
    'result',
    'lures',
    'test',
    'status',
  ],
  poolTest: ['id', 'add_date', 'updated', 'deactive_date'],
};

/** References a GET may return populated (`{id, …}`); on PUT they stand for their ID. */
const REFERENCES: Record<PutResource, readonly string[]> = {
  site: ['coordinate_precision', 'region', 'agency', 'user'],
  collection: ['trap', 'site', 'agency', 'user'],
  pool: ['collection', 'site', 'species', 'sex', 'trap', 'agency', 'user'],
  poolTest: ['pool', 'method', 'target', 'status', 'test_agency', 'agency', 'user'],
};

const isObject = (v: unknown): v is Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** A populated record `{id: n, …}` as its ID; anything else unchanged (the schema judges it). */
function asId(v: unknown): unknown {
  return isObject(v) && typeof v.id === 'number' ? refId(v as { id: number }) : v;
}

/** A retired nested row (a deactivated lure or abundance row) is not part of the active set. */
const isRetired = (v: unknown) => isObject(v) && v.deactive_date != null;

/** A location record as GET returns it, reduced to what a client sets: shape and precision. */
function locationInputOf(v: unknown): unknown {
  if (!isObject(v) || !('shape' in v)) return v;
  const { id: _id, table_name: _t, record_id: _r, agency: _a, ...rest } = v;
  return 'coordinate_precision' in rest
    ? { ...rest, coordinate_precision: asId(rest.coordinate_precision) }
    : rest;
}

/** An abundance row as GET returns it, reduced to `{species, sex, num_count}`. */
function abundanceInputOf(v: unknown): unknown {
  if (!isObject(v)) return v;
  const { id: _id, collection: _c, agency: _a, deactive_date: _d, ...rest } = v;
  return { ...rest, species: asId(rest.species), sex: asId(rest.sex) };
}

/**
 * A lure as GET returns it, reduced to its lure type ID (the tolerated shape of §6): a link record
 * names the type under `lure` (its own `id` is the link's); with `populate[]=lures` the lure type
 * itself `{id, code, …}` stands there.
 */
function lureInputOf(v: unknown): unknown {
  if (!isObject(v)) return v;
  return 'lure' in v ? asId(v.lure) : asId(v);
}

/**
 * A PUT body with response-only fields removed (nested ones too) and populated references
 * reduced to IDs, so the shared update schema judges only what the client can change. A body
 * that is not an object is returned as is, for `parseBody` to refuse.
 */
export function putBody(resource: PutResource, body: unknown): unknown {
  if (!isObject(body)) return body;
  const out: Json = {};
  for (const [key, value] of Object.entries(body)) {
    if (RESPONSE_ONLY[resource].includes(key)) continue;
    out[key] = REFERENCES[resource].includes(key) ? asId(value) : value;
  }
  if (resource === 'site') {
    if (Array.isArray(out.site_land_usage)) out.site_land_usage = out.site_land_usage.map(asId);
    // Contract §3: elevation comes back as a numeric string; echoed, it means that number.
    if (typeof out.elevation === 'string') {
      const echoed = numericLoose.safeParse(out.elevation);
      if (echoed.success) out.elevation = echoed.data;
    }
  }
  if (resource === 'collection') {
    if ('location' in out) out.location = locationInputOf(out.location);
    if (Array.isArray(out.arthropods)) {
      out.arthropods = out.arthropods.filter((r) => !isRetired(r)).map(abundanceInputOf);
    }
    if (Array.isArray(out.lures))
      out.lures = out.lures.filter((l) => !isRetired(l)).map(lureInputOf);
  }
  return out;
}
