import { z } from 'zod';
import { id, idOrRecord, ignoredOnPut, isoDateInput, isoDateOutput, optionalText } from './common';
import { poolTestValueMessages } from '../rules/pool-test-values';

const poolTestFields = {
  pool: id,
  method: id,
  target: id,
  status: id,
  test_date: isoDateInput,
  test_agency: id,
  // Never negative, whatever the method; a Ct's upper bound depends on the method, which the form
  // and the records service know (rules/pool-test-values.ts).
  value: z
    .number()
    .finite()
    .min(0, { message: poolTestValueMessages.negative })
    .nullable()
    .optional(),
  comments: optionalText.nullable().optional(),
  agency: id.nullable().optional(),
  user: id.nullable().optional(),
};

/** POST /v1/arthropod/pool/test. */
export const poolTestCreate = z.strictObject(poolTestFields);
export type PoolTestCreate = z.infer<typeof poolTestCreate>;

export const poolTestUpdate = z
  .strictObject(poolTestFields)
  .partial()
  .extend(ignoredOnPut('poolTest'));
export type PoolTestUpdate = z.infer<typeof poolTestUpdate>;

export const poolTest = z
  .object({
    id,
    pool: idOrRecord,
    method: idOrRecord,
    target: idOrRecord,
    status: idOrRecord,
    test_date: isoDateOutput,
    test_agency: idOrRecord,
    value: z.union([z.number(), z.string()]).nullable().optional(),
    comments: z.string().nullable().optional(),
    user: idOrRecord.nullable().optional(),
    agency: idOrRecord.nullable().optional(),
    add_date: isoDateOutput.optional(),
    updated: isoDateOutput.optional(),
    deactive_date: isoDateOutput.nullable().optional(),
  })
  .loose();
export type PoolTest = z.infer<typeof poolTest>;
