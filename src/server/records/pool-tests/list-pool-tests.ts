import type { Database } from '../../db/database';
import type { List } from '#shared/schemas/list';
import type { Caller } from '../auth/types';
import { parseListQuery, type ListSpec } from '../list';
import { listActiveRecords } from '../list/list-active-records';
import { POOL_TEST_POPULATE, populatePoolTests } from './populate-pool-tests';
import { poolTestRecords } from './pool-test-records';

const FIELDS: ListSpec['fields'] = {
  id: { sql: 't.id', type: 'int' },
  agency: { sql: 't.agency', type: 'int' },
  user: { sql: 't.user_id', type: 'int' },
  pool: { sql: 't.pool', type: 'int' },
  method: { sql: 't.method', type: 'int' },
  target: { sql: 't.target', type: 'int' },
  status: { sql: 't.status', type: 'int' },
  test_date: { sql: 't.test_date', type: 'date' },
  test_agency: { sql: 't.test_agency', type: 'int' },
  value: { sql: 't.value', type: 'float' },
  comments: { sql: 't.comments', type: 'text' },
  add_date: { sql: 't.add_date', type: 'date' },
  updated: { sql: 't.updated', type: 'date' },
};

/** GET parameters of pool tests (§4). */
export const POOL_TEST_LIST: ListSpec = {
  fields: FIELDS,
  outputFields: [...Object.keys(FIELDS), 'deactive_date'],
  populate: POOL_TEST_POPULATE,
};

/** GET /v1/arthropod/pool/test: the agency's active pool tests (contract §4). */
export async function listPoolTests(
  db: Database,
  caller: Caller,
  url: string,
): Promise<List<unknown>> {
  const q = parseListQuery(url, POOL_TEST_LIST, { firstParam: 2 });
  return listActiveRecords(db, caller, q, {
    table: 'pool_test',
    alias: 't',
    records: poolTestRecords,
    populate: populatePoolTests,
  });
}
