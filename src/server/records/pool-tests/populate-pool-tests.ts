import type { Queryable, Row } from '../../db/database';
import { populateRefs } from '../populate';
import { poolRecords } from '../pools/pool-records';

/** `populate[]` names a pool test accepts (contract §4). */
export const POOL_TEST_POPULATE = [
  'pool',
  'method',
  'target',
  'status',
  'test_agency',
  'agency',
  'user',
] as const;

/** Expands the named ID fields of serialised pool tests in place. */
export async function populatePoolTests(
  q: Queryable,
  agency: number,
  records: Row[],
  names: readonly string[],
): Promise<void> {
  if (records.length === 0) return;
  const has = (n: string) => names.includes(n);
  if (has('pool')) {
    const pools = await poolRecords(q, agency, [...new Set(records.map((r) => r.pool as number))]);
    const byId = new Map(pools.map((p) => [p.id as number, p]));
    for (const r of records) r.pool = byId.get(r.pool as number) ?? r.pool;
  }
  if (has('method')) await populateRefs(q, records, 'method', 'test_method');
  if (has('target')) await populateRefs(q, records, 'target', 'test_target');
  if (has('status')) await populateRefs(q, records, 'status', 'test_status');
  if (has('test_agency')) await populateRefs(q, records, 'test_agency', 'agency');
  if (has('agency')) await populateRefs(q, records, 'agency', 'agency');
  if (has('user')) await populateRefs(q, records, 'user', 'user');
}
