import { z } from 'zod';
import {
  id,
  ignoredOnPut,
  isoDateInput,
  isoDateOutput,
  numericLoose,
  optionalText,
  shape,
  shapeInput,
} from './common';
import { text } from './text';

export const SITE_CODE = /^\d{6}$/;
export const ZERO_SITE_CODE = '000000';
export const SITE_POPULATIONS = ['Suburban', 'Urban', 'Rural'] as const;
/** Elevation in metres a site may have (contract §3). */
export const ELEVATION_RANGE = { min: -500, max: 9000 } as const;

const siteFields = {
  code: z.string().regex(SITE_CODE, { message: 'Site code must be exactly 6 digits' }),
  name: text().trim().min(1, { message: 'Site name is required' }).max(200),
  coordinate_precision: id,
  shape: shapeInput,
  active_date: isoDateInput,
  deactive_date: isoDateInput,
  address_1: optionalText,
  address_2: optionalText,
  city: optionalText,
  comments: optionalText,
  // Metres above sea level; the range spans every place on land (Dead Sea shore ≈ −430 m, Everest
  // ≈ 8849 m), so a value outside it is a typo or a unit mix-up (feet, centimetres).
  elevation: z
    .number()
    .finite()
    .min(ELEVATION_RANGE.min, { message: `Elevation must be at least ${ELEVATION_RANGE.min} m` })
    .max(ELEVATION_RANGE.max, { message: `Elevation must be at most ${ELEVATION_RANGE.max} m` }),
  postal_code: z.string().regex(/^\d{5}$/, { message: 'Postal code must be 5 digits' }),
  region: id,
  revision_comments: optionalText,
  site_population: z.enum(SITE_POPULATIONS),
  site_land_usage: z.array(id).max(50),
  site_land_usage_custom: z.array(text().trim().min(1).max(200)).max(50),
  agency: id,
  user: id,
};

const REQUIRED = ['code', 'name', 'coordinate_precision', 'shape'] as const;
type Req = (typeof REQUIRED)[number];
type OptionalKeys = Exclude<keyof typeof siteFields, Req>;

/** POST /v1/site. Unknown and response-only fields are rejected. */
export const siteCreate = z.strictObject({
  code: siteFields.code,
  name: siteFields.name,
  coordinate_precision: siteFields.coordinate_precision,
  shape: siteFields.shape,
  ...(Object.fromEntries(
    Object.entries(siteFields)
      .filter(([k]) => !(REQUIRED as readonly string[]).includes(k))
      .map(([k, s]) => [k, s.nullable().optional()]),
  ) as { [K in OptionalKeys]: z.ZodOptional<z.ZodNullable<(typeof siteFields)[K]>> }),
});
export type SiteCreate = z.infer<typeof siteCreate>;

/**
 * PUT /v1/site/{id}: any subset. `null` clears an optional field; required fields may not be
 * null. Response-only fields are accepted and ignored (stripped by the service).
 */
export const siteUpdate = siteCreate.partial().extend(ignoredOnPut('site'));
export type SiteUpdate = z.infer<typeof siteUpdate>;

/** A site as the service returns it (tolerant of the hosted service's variations). */
export const site = z
  .object({
    id,
    code: z.string(),
    name: z.string(),
    coordinate_precision: z.union([id, z.object({ id }).loose()]).nullable(),
    shape,
    active_date: isoDateOutput.nullable().optional(),
    deactive_date: isoDateOutput.nullable().optional(),
    delete_date: isoDateOutput.nullable().optional(),
    address_1: z.string().nullable().optional(),
    address_2: z.string().nullable().optional(),
    city: z.string().nullable().optional(),
    comments: z.string().nullable().optional(),
    elevation: numericLoose.nullable().optional(),
    postal_code: z.string().nullable().optional(),
    region: z
      .union([id, z.object({ id }).loose()])
      .nullable()
      .optional(),
    revision_comments: z.string().nullable().optional(),
    site_population: z.string().nullable().optional(),
    site_land_usage: z
      .array(z.union([id, z.object({ id }).loose()]))
      .nullable()
      .optional(),
    site_land_usage_custom: z.array(z.string()).nullable().optional(),
    agency: z.union([id, z.object({ id }).loose()]),
    user: z
      .union([id, z.object({ id }).loose()])
      .nullable()
      .optional(),
    add_date: isoDateOutput.optional(),
    updated: isoDateOutput.optional(),
  })
  .loose();
export type Site = z.infer<typeof site>;
