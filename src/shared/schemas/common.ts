import { z } from 'zod';
import { text } from './text';
import { RESPONSE_ONLY, type Entity } from '../entities';

/** Internal numeric identifier: a positive integer. */
export const id = z.number().int().positive();

/**
 * The largest whole number the records service stores (PostgreSQL `int`); it refuses a larger one
 * anywhere in a body with 422 and these words (server/records/common/int4-errors.ts). Counts a
 * person types carry the bound in their schema, so the tablet refuses the typo at save time.
 */
export const MAX_STORED_INT = 2_147_483_647;
export const STORED_INT_MESSAGE = `Must be at most ${MAX_STORED_INT}`;

/** ISO 8601 date (`2026-07-14`) or date-time with an offset (`2026-07-14T06:30:00-07:00`). */
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const isoDateTime = z.iso.datetime({ offset: true });
const OFFSET = /([+-])(\d{2}):(\d{2})$/;
/**
 * Zones on earth run from UTC-12:00 to UTC+14:00; an offset beyond them is a typo. The test-date
 * rule (server/records/pool-tests/test-date-rule.ts) relies on that range, so it is enforced here
 * once, for the forms and the services alike.
 */
const MIN_OFFSET_MINUTES = -12 * 60;
const MAX_OFFSET_MINUTES = 14 * 60;
function offsetOnEarth(v: string): boolean {
  const m = OFFSET.exec(v);
  if (!m) return true; // `Z`
  const minutes = (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
  return minutes >= MIN_OFFSET_MINUTES && minutes <= MAX_OFFSET_MINUTES;
}
export const isoDateInput = z.string().superRefine((v, ctx) => {
  const dateOnly = DATE_ONLY.test(v);
  if (!(dateOnly || isoDateTime.safeParse(v).success) || !isRealCalendarDate(v.slice(0, 10))) {
    ctx.addIssue({
      code: 'custom',
      message:
        'Use a real date like 2026-07-14, or a date-time with offset like 2026-07-14T06:30:00-07:00',
    });
  } else if (!dateOnly && !offsetOnEarth(v)) {
    ctx.addIssue({
      code: 'custom',
      message: 'The time zone offset must be between -12:00 and +14:00, like -07:00',
    });
  }
});

/** `2026-02-30` matches the pattern but is no day of the calendar. */
function isRealCalendarDate(ymd: string): boolean {
  const [y, m, d] = ymd.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** Dates in responses: `YYYY-MM-DDTHH:mm:ss.sssZ`. Clients accept any parseable date string. */
export const isoDateOutput = z.string();

/** Converts an input date (date-only or with offset) to the service's output form. */
export function toIsoOutput(input: string): string {
  return new Date(DATE_ONLY.test(input) ? `${input}T00:00:00.000Z` : input).toISOString();
}

export const optionalText = text().max(10_000);

/** Contract §3: elevation is sent as a number, returned as a numeric string; clients accept both. */
export const numericLoose = z
  .union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/)])
  .transform(Number);

/**
 * Longitude/latitude pair in WGS 84, `[longitude, latitude]` order.
 * Contract §1: the interface's bounds are swapped; this validates longitude in [-180, 180] and
 * latitude in [-90, 90], and names the likely swap when the pair only fits the other way round.
 */
export const coordinates = z.tuple([z.number(), z.number()]).superRefine(([lon, lat], ctx) => {
  if (!Number.isFinite(lon) || !Number.isFinite(lat)) {
    ctx.addIssue({ code: 'custom', message: 'Coordinates must be finite numbers' });
    return;
  }
  const lonOk = lon >= -180 && lon <= 180;
  const latOk = lat >= -90 && lat <= 90;
  if (lonOk && latOk) return;
  const swappedFits = lat >= -180 && lat <= 180 && lon >= -90 && lon <= 90;
  if (swappedFits) {
    ctx.addIssue({
      code: 'custom',
      message: `Latitude ${lat} is outside -90..90: the coordinates look swapped. Send [longitude, latitude], e.g. [${lat}, ${lon}]`,
    });
  } else {
    ctx.addIssue({
      code: 'custom',
      message:
        'Longitude must be within -180..180 and latitude within -90..90 ([longitude, latitude])',
    });
  }
});

export const crs = z.object({
  type: z.literal('name'),
  properties: z.object({ name: z.literal('EPSG:4326') }),
});
export const CRS_4326 = { type: 'name', properties: { name: 'EPSG:4326' } } as const;

/** Shape object. `crs` appears in responses; a client echoing it back on input is tolerated. */
export const shapeInput = z.strictObject({
  type: z.literal('Point', { message: "Shape type must be 'Point'" }),
  coordinates,
  crs: crs.optional(),
});
export type ShapeInput = z.infer<typeof shapeInput>;

export const shape = z.object({
  type: z.literal('Point'),
  coordinates: z.tuple([z.number(), z.number()]),
  crs: crs.optional(),
});
export type Shape = z.infer<typeof shape>;

/** Location sent with a collection: a shape and its coordinate precision. */
export const locationInput = z.strictObject({
  shape: shapeInput,
  coordinate_precision: id,
});
export type LocationInput = z.infer<typeof locationInput>;

/** Location record in responses (rule 5 of the interface). */
export const location = z.object({
  id: id.optional(),
  table_name: z.string().optional(),
  record_id: id.nullable().optional(),
  agency: id.nullable().optional(),
  shape,
  coordinate_precision: z
    .union([id, z.object({ id }).loose()])
    .nullable()
    .optional(),
});
export type Location = z.infer<typeof location>;

/** A reference that is either an ID or a populated record with an `id`. */
export const idOrRecord = z.union([id, z.object({ id }).loose()]);
export function refId(v: number | { id: number } | null | undefined): number | null {
  if (v == null) return null;
  return typeof v === 'number' ? v : v.id;
}

/**
 * The response-only fields of an entity (ENTITY[e].responseOnly) as accepted, ignored members of
 * its `*Update` schema: a record read with GET may be sent back on PUT (contract §6).
 */
export function ignoredOnPut<E extends Entity>(
  entity: E,
): { [F in (typeof RESPONSE_ONLY)[E][number]]: z.ZodOptional<z.ZodUnknown> } {
  return Object.fromEntries(RESPONSE_ONLY[entity].map((f) => [f, z.unknown().optional()])) as {
    [F in (typeof RESPONSE_ONLY)[E][number]]: z.ZodOptional<z.ZodUnknown>;
  };
}
