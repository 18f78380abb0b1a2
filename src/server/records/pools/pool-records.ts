import type { Queryable, Row } from '../../db/database';
import { isoDate } from '../common/iso-date';
import { LOCATION_COLUMNS, locationRecord } from '../common/location-record';
import { definitiveTests, populatedTests } from '../pool-tests/pool-test-records';

/**
 * Pools of the agency by ID, in the order of `ids`, with `id` first. `collection_date` is always
 * the collection's (contract §4); `result` is the pool's definitive test (contract §6) in the
 * populated-test shape with its status populated, or null before any test.
 */
export async function poolRecords(q: Queryable, agency: number, ids: number[]): Promise<Row[]> {
  if (ids.length === 0) return [];
  const { rows } = await q.query(
    `select p.*, coalesce(c.collection_date, p.collection_date) as of_collection_date, ${LOCATION_COLUMNS}
       from pool p
       left join collection c on c.id = p.collection
       left join location l on l.id = p.location
      where p.agency = $1 and p.id = any($2::int[])`,
    [agency, ids],
  );
  const definitive = await definitiveTests(q, ids);
  const results = await populatedTests(q, [...definitive.values()], true);
  const resultOf = new Map(results.map((r) => [r.id as number, r]));
  const byId = new Map(
    rows.map((p) => {
      const test = definitive.get(p.id as number);
      return [
        p.id as number,
        {
          id: p.id,
          agency: p.agency,
          user: p.user_id,
          collection: p.collection,
          site: p.site,
          location: locationRecord(p),
          surv_year: p.surv_year,
          pool_num: p.pool_num,
          num_count: p.num_count,
          species: p.species,
          sex: p.sex,
          primary_source_bit: p.primary_source_bit,
          primary_source: p.primary_source,
          comments: p.comments,
          collection_date: isoDate(p.of_collection_date),
          trap: p.trap,
          result: test ? (resultOf.get(test.id as number) ?? null) : null,
          add_date: isoDate(p.add_date),
          updated: isoDate(p.updated),
          deactive_date: isoDate(p.deactive_date),
        } as Row,
      ];
    }),
  );
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id) as Row] : []));
}
