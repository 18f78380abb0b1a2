import { z } from 'zod';
import { id } from './common';

export const SPECIES_TYPES = ['mosquito', 'tick', 'nontick'] as const;
export const SEX_TYPES = ['female', 'male', 'other'] as const;

export const species = z
  .object({
    id,
    full_name: z.string(),
    display_name: z.string().nullable().optional(),
    type: z.string(),
  })
  .loose();
/** `type` is female / male / other; `name` the condition such as F-Gravid. */
export const sex = z.object({ id, name: z.string(), type: z.string() }).loose();
export const trap = z
  .object({
    id,
    acronym: z.string(),
    name: z.string(),
    presence: z.boolean().nullable().optional(),
  })
  .loose();
export const lure = z
  .object({
    id,
    code: z.string(),
    description: z.string().nullable().optional(),
    weight: z.union([z.number(), z.string()]).nullable().optional(),
  })
  .loose();
export const coordinatePrecision = z
  .object({ id, name: z.string(), meters: z.number().nullable().optional() })
  .loose();
export const landUsage = z.object({ id, name: z.string() }).loose();
export const region = z
  .object({
    id,
    name: z.string(),
    namelsad: z.string().nullable().optional(),
    type: z.string().nullable().optional(),
    geoid: z.string().nullable().optional(),
    parent: id.nullable().optional(),
  })
  .loose();
export const agency = z
  .object({
    id,
    code: z.string().nullable().optional(),
    name: z.string(),
    state_acronym: z.string().nullable().optional(),
    region: z.union([id, region]).nullable().optional(),
  })
  .loose();
export const testMethod = z
  .object({
    id,
    name: z.string(),
    acronym: z.string().nullable().optional(),
    sensitivity: z.number().nullable().optional(),
  })
  .loose();
export const testTarget = z
  .object({
    id,
    acronym: z.string(),
    name: z.string(),
    vector: z.string().nullable().optional(),
    icd_10: z.string().nullable().optional(),
  })
  .loose();
export const testStatus = z
  .object({ id, name: z.string(), description: z.string().nullable().optional() })
  .loose();

export type Species = z.infer<typeof species>;
export type Sex = z.infer<typeof sex>;
export type Trap = z.infer<typeof trap>;
export type Lure = z.infer<typeof lure>;
export type CoordinatePrecision = z.infer<typeof coordinatePrecision>;
export type LandUsage = z.infer<typeof landUsage>;
export type Region = z.infer<typeof region>;
export type Agency = z.infer<typeof agency>;
export type TestMethod = z.infer<typeof testMethod>;
export type TestTarget = z.infer<typeof testTarget>;
export type TestStatus = z.infer<typeof testStatus>;

/**
 * Every lookup list, keyed by its name in the lookups document, with the upstream path it comes
 * from (contract §5). The BFF fetches each path; the app reads the document.
 */
export const LOOKUP_LISTS = {
  species: { path: '/v1/species', schema: species },
  sex: { path: '/v1/sex', schema: sex },
  trap: { path: '/v1/trap', schema: trap },
  lure: { path: '/v1/lure', schema: lure },
  coordinate_precision: { path: '/v1/coordinate-precision', schema: coordinatePrecision },
  land_usage: { path: '/v1/land-usage', schema: landUsage },
  region: { path: '/v1/region', schema: region },
  agency: { path: '/v1/agency', schema: agency },
  test_method: { path: '/v1/test/method', schema: testMethod },
  test_target: { path: '/v1/test/target', schema: testTarget },
  test_status: { path: '/v1/test/status', schema: testStatus },
} as const;
export type LookupName = keyof typeof LOOKUP_LISTS;
export const LOOKUP_NAMES = Object.keys(LOOKUP_LISTS) as LookupName[];

/** GET /api/lookups: every list in one document. */
export const lookupsDocument = z.object({
  fetched_at: z.string(),
  species: z.array(species),
  sex: z.array(sex),
  trap: z.array(trap),
  lure: z.array(lure),
  coordinate_precision: z.array(coordinatePrecision),
  land_usage: z.array(landUsage),
  region: z.array(region),
  agency: z.array(agency),
  test_method: z.array(testMethod),
  test_target: z.array(testTarget),
  test_status: z.array(testStatus),
});
export type LookupsDocument = z.infer<typeof lookupsDocument>;

/** Female conditions that may not be combined with F-Mixed for the same species (contract §6). */
export const SPECIFIC_FEMALE_CONDITIONS = ['F-Unfed', 'F-Bloodfed', 'F-Gravid'] as const;
export const MIXED_FEMALE_CONDITION = 'F-Mixed';
