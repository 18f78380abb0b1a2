import { numericLoose, refId } from '#shared/schemas/common';
import { ENTITY, type Entity } from '#shared/entities';

export type PutResource = Entity;

type Json = Record<string, unknown>;

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
    // Contract §6: fields a client cannot set are ignored on PUT, so a record read with GET can
    // be sent back unchanged (POST still refuses them: it never sees this).
    if (ENTITY[resource].responseOnly.includes(key)) continue;
    out[key] = ENTITY[resource].references.includes(key) ? asId(value) : value;
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
