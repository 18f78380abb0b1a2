import { z } from 'zod';
import {
  id,
  idOrRecord,
  ignoredOnPut,
  isoDateInput,
  isoDateOutput,
  location,
  locationInput,
  MAX_STORED_INT,
  optionalText,
  STORED_INT_MESSAGE,
} from './common';
import { text } from './text';
import { collectionLure } from './lure';

/** One abundance row: how many of a species and sex a trap caught. */
export const abundanceInput = z.strictObject({
  species: id,
  sex: id,
  num_count: z
    .number()
    .int({ message: 'Count must be a whole number' })
    .min(0, { message: 'Count cannot be negative' })
    .max(MAX_STORED_INT, { message: STORED_INT_MESSAGE }),
});
export type AbundanceInput = z.infer<typeof abundanceInput>;

/** At most one row per (species, sex): a second row would double-count the same catch. */
const uniqueAbundance = z
  .array(abundanceInput)
  .max(500)
  .superRefine((rows, ctx) => {
    const seen = new Map<string, number>();
    rows.forEach((r, i) => {
      const key = `${r.species}:${r.sex}`;
      const first = seen.get(key);
      if (first !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'sex'],
          message: `Row ${i + 1} repeats the species and sex of row ${first + 1}; add the counts into one row`,
        });
      } else seen.set(key, i);
    });
  });

export const abundance = z
  .object({
    id: id.optional(),
    collection: id.nullable().optional(),
    agency: id.nullable().optional(),
    species: idOrRecord,
    sex: idOrRecord,
    num_count: z.number(),
    deactive_date: isoDateOutput.nullable().optional(),
  })
  .loose();
export type Abundance = z.infer<typeof abundance>;

const collectionOptional = {
  collection_date_date_only: z.boolean(),
  collection_num: z.number().int().positive(),
  comments: optionalText,
  identified_by: text().max(200),
  site: id,
  location: locationInput,
  surv_year: z.number().int().min(1900).max(2200),
  trap_problem_bit: z.boolean(),
  agency: id,
  user: id,
  lures: z.array(id).max(50),
  arthropods: uniqueAbundance,
};
type OptionalKeys = keyof typeof collectionOptional;
const nullableOptional = Object.fromEntries(
  Object.entries(collectionOptional).map(([k, s]) => [k, s.nullable().optional()]),
) as { [K in OptionalKeys]: z.ZodOptional<z.ZodNullable<(typeof collectionOptional)[K]>> };

/** POST /v1/arthropod/collection. */
export const collectionCreate = z.strictObject({
  collection_date: isoDateInput,
  num_trap: z
    .number()
    .int({ message: 'Number of traps must be a whole number' })
    .min(1, { message: 'At least 1 trap' })
    .max(MAX_STORED_INT, { message: STORED_INT_MESSAGE }),
  trap: id,
  trap_nights: z
    .number()
    .int({ message: 'Trap nights must be a whole number' })
    .min(1, { message: 'At least 1 trap night' })
    .max(MAX_STORED_INT, { message: STORED_INT_MESSAGE }),
  ...nullableOptional,
});
export type CollectionCreate = z.infer<typeof collectionCreate>;

/** PUT /v1/arthropod/collection/{id}: any subset; `arthropods`/`lures` replace the active set. */
export const collectionUpdate = collectionCreate.partial().extend(ignoredOnPut('collection'));
export type CollectionUpdate = z.infer<typeof collectionUpdate>;

/** A collection as the service returns it. Lures may be IDs, lure records or lure types (tolerate). */
export const collection = z
  .object({
    id,
    collection_date: isoDateOutput,
    collection_date_date_only: z.boolean().nullable().optional(),
    collection_num: z.number().nullable().optional(),
    comments: z.string().nullable().optional(),
    identified_by: z.string().nullable().optional(),
    num_trap: z.number(),
    trap: idOrRecord,
    trap_nights: z.number(),
    trap_problem_bit: z.boolean().nullable().optional(),
    site: idOrRecord.nullable().optional(),
    location: location.nullable().optional(),
    surv_year: z.number().nullable().optional(),
    agency: idOrRecord,
    user: idOrRecord.nullable().optional(),
    lures: z.array(collectionLure).nullable().optional(),
    arthropods: z.array(abundance).nullable().optional(),
    add_date: isoDateOutput.optional(),
    updated: isoDateOutput.optional(),
    deactive_date: isoDateOutput.nullable().optional(),
  })
  .loose();
export type Collection = z.infer<typeof collection>;
