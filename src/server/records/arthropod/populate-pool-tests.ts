import type { Queryable, Row } from '../../db/database';
import { populateField } from './lookup-records';
import { poolRecords } from './pool-records';

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
  names: Set<string>,
): Promise<void> {
  if (records.length === 0) return;
  if (names.has('pool')) {
    const pools = await poolRecords(q, agency, [...new Set(records.map((r) => r.pool as number))]);
    const byId = new Map(pools.map((p) => [p.id as number, p]));
    for (const r of records) r.pool = byId.get(r.pool as number) ?? r.pool;
  }
  if (names.has('method')) await populateField(q, records, 'method', 'test_method');
  if (names.has('target')) await populateField(q, records, 'target', 'test_target');
  if (names.has('status')) await populateField(q, records, 'status', 'test_status');
  if (names.has('test_agency')) await populateField(q, records, 'test_agency', 'agency');
  if (names.has('agency')) await populateField(q, records, 'agency', 'agency');
  if (names.has('user')) await populateField(q, records, 'user', 'app_user');
}
