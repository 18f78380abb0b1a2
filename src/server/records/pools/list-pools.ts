import type { Database } from '../../db/database';
import type { List } from '#shared/schemas/list';
import { SPECIES_TYPES } from '#shared/schemas/lookups';
import type { Caller } from '../auth/types';
import { validationFailed } from '../errors';
import { parseListQuery, type ListSpec } from '../list';
import { listActiveRecords } from '../list/list-active-records';
import { POOL_POPULATE, populatePools } from './populate-pools';
import { poolRecords } from './pool-records';

const FIELDS: ListSpec['fields'] = {
  id: { sql: 'p.id', type: 'int' },
  agency: { sql: 'p.agency', type: 'int' },
  user: { sql: 'p.user_id', type: 'int' },
  collection: { sql: 'p.collection', type: 'int' },
  site: { sql: 'p.site', type: 'int' },
  surv_year: { sql: 'p.surv_year', type: 'int' },
  pool_num: { sql: 'p.pool_num', type: 'int' },
  num_count: { sql: 'p.num_count', type: 'int' },
  species: { sql: 'p.species', type: 'int' },
  sex: { sql: 'p.sex', type: 'int' },
  primary_source_bit: { sql: 'p.primary_source_bit', type: 'bool' },
  primary_source: { sql: 'p.primary_source', type: 'int' },
  comments: { sql: 'p.comments', type: 'text' },
  // Pools always carry their collection's date (contract §4): every write keeps the pool's own
  // column equal to it (migration 4 backfilled older rows), so no join is needed to filter or
  // sort by it, and the (agency, collection_date) index serves both.
  collection_date: { sql: 'p.collection_date', type: 'date' },
  trap: { sql: 'p.trap', type: 'int' },
  add_date: { sql: 'p.add_date', type: 'date' },
  updated: { sql: 'p.updated', type: 'date' },
};

/** GET parameters of pools (§4), plus `type`. */
export const POOL_LIST: ListSpec = {
  fields: FIELDS,
  outputFields: [...Object.keys(FIELDS), 'location', 'result', 'test', 'lures', 'deactive_date'],
  populate: POOL_POPULATE,
  extraParams: ['type'],
};

/** GET /v1/arthropod/pool: the agency's active pools of one species type (default mosquito). */
export async function listPools(db: Database, caller: Caller, url: string): Promise<List<unknown>> {
  const q = parseListQuery(url, POOL_LIST, { firstParam: 3 });
  const type = q.extra.type ?? 'mosquito';
  if (!(SPECIES_TYPES as readonly string[]).includes(type)) {
    throw validationFailed([
      { path: 'type', message: `type must be one of ${SPECIES_TYPES.join(', ')}` },
    ]);
  }
  // The type's species ids as values, not a join or subquery: the planner then estimates the
  // pools they match from pool.species' own statistics (a subquery on the small, rarely analysed
  // species table made it guess, and sort the whole table for one page). A join would also run
  // for every matching pool before the limit, so the page would cost the agency's whole history.
  const { rows: species } = await db.query<{ id: number }>(
    'select id from species where type = $1 order by id',
    [type],
  );
  return listActiveRecords(
    db,
    caller,
    q,
    { table: 'pool', alias: 'p', records: poolRecords, populate: populatePools },
    {
      where: 'p.species = any($2::int[])',
      params: [species.map((s) => s.id)],
      speciesType: type,
    },
  );
}
