import { z } from 'zod';
import {
  id,
  idOrRecord,
  ignoredOnPut,
  isoDateInput,
  isoDateOutput,
  location,
  MAX_STORED_INT,
  optionalText,
  STORED_INT_MESSAGE,
} from './common';

/**
 * POST /v1/arthropod/pool. Either `collection`, or `site, collection_date, trap` with
 * `primary_source_bit: true` (contract §6).
 */
const poolFields = z.strictObject({
  collection: id.nullable().optional(),
  num_count: z
    .number()
    .int({ message: 'Pool count must be a whole number' })
    .min(1, { message: 'A pool holds at least 1' })
    .max(MAX_STORED_INT, { message: STORED_INT_MESSAGE }),
  species: id,
  sex: id,
  pool_num: z.number().int().positive().nullable().optional(),
  primary_source_bit: z.boolean().nullable().optional(),
  comments: optionalText.nullable().optional(),
  site: id.nullable().optional(),
  collection_date: isoDateInput.nullable().optional(),
  trap: id.nullable().optional(),
  agency: id.nullable().optional(),
  user: id.nullable().optional(),
});

export const poolCreate = poolFields.superRefine((p, ctx) => {
  if (p.collection != null) return;
  const missing = (['site', 'collection_date', 'trap'] as const).filter((k) => p[k] == null);
  for (const k of missing) {
    ctx.addIssue({
      code: 'custom',
      path: [k],
      message: `${k} is required when the pool names no collection`,
    });
  }
  if (missing.length === 0 && p.primary_source_bit !== true) {
    ctx.addIssue({
      code: 'custom',
      path: ['primary_source_bit'],
      message: 'primary_source_bit must be true for a pool given by site, collection_date and trap',
    });
  }
  if (missing.length === 3) {
    ctx.addIssue({ code: 'custom', path: ['collection'], message: 'collection is required' });
  }
});
export type PoolCreate = z.infer<typeof poolCreate>;

export const poolUpdate = poolFields.partial().extend(ignoredOnPut('pool'));
export type PoolUpdate = z.infer<typeof poolUpdate>;

export const pool = z
  .object({
    id,
    collection: idOrRecord.nullable().optional(),
    num_count: z.number(),
    species: idOrRecord,
    sex: idOrRecord,
    pool_num: z.number().nullable().optional(),
    primary_source_bit: z.boolean().nullable().optional(),
    primary_source: z.number().nullable().optional(),
    comments: z.string().nullable().optional(),
    site: idOrRecord.nullable().optional(),
    surv_year: z.number().nullable().optional(),
    location: location.nullable().optional(),
    collection_date: isoDateOutput.nullable().optional(),
    agency: idOrRecord,
    user: idOrRecord.nullable().optional(),
    add_date: isoDateOutput.optional(),
    updated: isoDateOutput.optional(),
    deactive_date: isoDateOutput.nullable().optional(),
  })
  .loose();
export type Pool = z.infer<typeof pool>;
