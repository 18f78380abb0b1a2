import type { Database } from '../../db/database';
import type { List } from '#shared/schemas/list';
import type { Caller } from '../auth/types';
import { parseListQuery, type ListSpec } from '../list';
import { listActiveRecords } from '../list/list-active-records';
import { collectionRecords } from './collection-records';
import { COLLECTION_POPULATE, populateCollections } from './populate-collections';

const FIELDS: ListSpec['fields'] = {
  id: { sql: 'c.id', type: 'int' },
  agency: { sql: 'c.agency', type: 'int' },
  user: { sql: 'c.user_id', type: 'int' },
  site: { sql: 'c.site', type: 'int' },
  collection_date: { sql: 'c.collection_date', type: 'date' },
  collection_date_date_only: { sql: 'c.collection_date_date_only', type: 'bool' },
  collection_num: { sql: 'c.collection_num', type: 'int' },
  comments: { sql: 'c.comments', type: 'text' },
  identified_by: { sql: 'c.identified_by', type: 'text' },
  num_trap: { sql: 'c.num_trap', type: 'int' },
  surv_year: { sql: 'c.surv_year', type: 'int' },
  trap: { sql: 'c.trap', type: 'int' },
  trap_nights: { sql: 'c.trap_nights', type: 'int' },
  trap_problem_bit: { sql: 'c.trap_problem_bit', type: 'bool' },
  add_date: { sql: 'c.add_date', type: 'date' },
  updated: { sql: 'c.updated', type: 'date' },
};

/** GET parameters of collections: filterable fields, output fields, populate names (§4). */
export const COLLECTION_LIST: ListSpec = {
  fields: FIELDS,
  outputFields: [
    ...Object.keys(FIELDS),
    'location',
    'lures',
    'arthropods',
    'pools',
    'deactive_date',
  ],
  populate: COLLECTION_POPULATE,
};

/** GET /v1/arthropod/collection: the agency's active collections (contract §4). */
export async function listCollections(
  db: Database,
  caller: Caller,
  url: string,
): Promise<List<unknown>> {
  const q = parseListQuery(url, COLLECTION_LIST, { firstParam: 2 });
  return listActiveRecords(db, caller, q, {
    table: 'collection',
    alias: 'c',
    records: collectionRecords,
    populate: populateCollections,
  });
}
