import type { Database } from '../../db/database';
import type { List } from '../../../shared/schemas/list';
import type { Caller } from '../auth/types';
import { parseListQuery, type ListSpec } from './list-query';
import { listIds, pickFields } from './list-records';
import { POOL_TEST_POPULATE, populatePoolTests } from './populate-pool-tests';
import { poolTestRecords } from './pool-test-records';

const SPEC: ListSpec = {
  fields: {
    id: { sql: 't.id', type: 'int' },
    agency: { sql: 't.agency', type: 'int' },
    user: { sql: 't.user_id', type: 'int' },
    pool: { sql: 't.pool', type: 'int' },
    method: { sql: 't.method', type: 'int' },
    target: { sql: 't.target', type: 'int' },
    status: { sql: 't.status', type: 'int' },
    test_date: { sql: 't.test_date', type: 'date' },
    test_agency: { sql: 't.test_agency', type: 'int' },
    value: { sql: 't.value', type: 'number' },
    comments: { sql: 't.comments', type: 'text' },
    add_date: { sql: 't.add_date', type: 'date' },
    updated: { sql: 't.updated', type: 'date' },
  },
  outputOnly: ['deactive_date'],
  populate: POOL_TEST_POPULATE,
};

/** GET /v1/arthropod/pool/test: the agency's active pool tests (contract §4). */
export async function listPoolTests(
  db: Database,
  caller: Caller,
  url: string,
): Promise<List<unknown>> {
  const list = parseListQuery(url, SPEC);
  const { ids, count } = await listIds(db, SPEC, list, {
    from: 'pool_test t',
    idColumn: 't.id',
    where: ['t.agency = $1', 't.deactive_date is null'],
    params: [caller.agencyId],
  });
  const rows = await poolTestRecords(db, caller.agencyId, ids);
  await populatePoolTests(db, caller.agencyId, rows, list.populate);
  return { rows: pickFields(rows, list.fields), count };
}
