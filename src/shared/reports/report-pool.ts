import { z } from 'zod';
import { id, idOrRecord } from '../schemas/common';
import { agency, sex, species, testMethod, testStatus, testTarget, trap } from '../schemas/lookups';
import { pool } from '../schemas/pool';
import { poolTest } from '../schemas/pool-test';

/** One test as a pool embeds it with `populate[]=test&populate[]=status` (contract §4). */
const reportPoolTest = poolTest
  .pick({ id: true, test_date: true, value: true })
  .extend({
    method: z.union([testMethod, id]),
    target: testTarget,
    status: testStatus,
    agency: idOrRecord.nullable().optional(),
  })
  .loose();

/**
 * A pool as the records service lists it with `populate[]=test&populate[]=status&
 * populate[]=species&populate[]=sex&populate[]=trap&populate[]=agency`: the reports read each
 * test's target `acronym` and status `name`.
 */
export const reportPool = pool.extend({
  species,
  sex,
  trap: trap.nullable().optional(),
  agency,
  test: z.array(reportPoolTest).nullable().optional(),
});
export type ReportPool = z.infer<typeof reportPool>;
