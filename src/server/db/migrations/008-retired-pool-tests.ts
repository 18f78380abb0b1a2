import type { Migration } from '../migrate';

/**
 * A deleted pool's test results retire with it (pools/delete-pool.ts, and a deleted collection's
 * pools' in collections/delete-collection.ts). Pools retired before that kept their tests active,
 * still listed as evidence; they retire now, dated as their pool was. Data only, no schema change.
 */
export const retiredPoolTests: Migration = {
  version: 8,
  name: 'retired-pool-tests',
  sql: `
update pool_test t set deactive_date = p.deactive_date, updated = now()
  from pool p
 where t.pool = p.id and p.deactive_date is not null and t.deactive_date is null;
`,
};
