import type { Queryable } from '../../../src/server/db/database';
import { LATEST_TEST_DAY_SQL } from '../../../src/server/records/pool-tests/test-date-rule';

/**
 * What the database must look like after any sequence of requests, failed ones included: each
 * query returns the rows that break one rule (none when it holds). A request that failed half
 * way (a location without its collection, abundance rows of a refused create, a claimed key
 * never answered) shows up here even when every answer looked right.
 */
export const INVARIANTS: ReadonlyArray<{ name: string; sql: string }> = [
  {
    name: 'collection without its location record',
    sql: `select c.id from collection c left join location l on l.id = c.location
           where l.id is null or l.agency <> c.agency
              or (l.table_name = 'collection' and l.record_id is distinct from c.id)`,
  },
  {
    name: 'location record without its record',
    sql: `select l.id from location l
           where l.record_id is null
              or (l.table_name = 'collection' and not exists
                    (select 1 from collection c where c.id = l.record_id and c.agency = l.agency))
              or (l.table_name = 'pool' and not exists
                    (select 1 from pool p where p.id = l.record_id and p.agency = l.agency))
              or l.table_name not in ('collection', 'pool')`,
  },
  {
    name: 'abundance row of another agency than its collection',
    sql: `select a.id from abundance a join collection c on c.id = a.collection where a.agency <> c.agency`,
  },
  {
    name: 'two active abundance rows for one species and sex',
    sql: `select collection, species, sex from abundance where deactive_date is null
           group by collection, species, sex having count(*) > 1`,
  },
  {
    name: 'lure link without its collection',
    sql: `select r.id from record_lure r
           where r.table_name <> 'collection' or not exists
                 (select 1 from collection c where c.id = r.record_id and c.agency = r.agency)`,
  },
  {
    name: 'active pools hold more than the abundance row',
    sql: `select p.collection, p.species, p.sex, sum(p.num_count) as pooled
            from pool p join collection c on c.id = p.collection and c.deactive_date is null
           where p.deactive_date is null
           group by p.collection, p.species, p.sex
          having sum(p.num_count) > coalesce((select a.num_count from abundance a
                   where a.collection = p.collection and a.species = p.species and a.sex = p.sex
                     and a.deactive_date is null), 0)`,
  },
  {
    name: 'active pool of a deleted collection',
    sql: `select p.id from pool p join collection c on c.id = p.collection
           where p.deactive_date is null and c.deactive_date is not null`,
  },
  {
    name: "pool out of step with its collection's site, place, date, trap or year",
    sql: `select p.id from pool p join collection c on c.id = p.collection
           where p.agency <> c.agency or p.site is distinct from c.site
              or p.location is distinct from c.location or p.trap is distinct from c.trap
              or p.collection_date is distinct from c.collection_date or p.surv_year <> c.surv_year`,
  },
  {
    name: 'pool without a collection lacks its site, date, trap or place',
    sql: `select p.id from pool p left join location l on l.id = p.location
           where p.collection is null
             and (p.site is null or p.collection_date is null or p.trap is null
                  or l.id is null or l.agency <> p.agency)`,
  },
  {
    name: 'primary_source not the collection it is drawn from',
    sql: `select id from pool
           where primary_source is distinct from
                 (case when primary_source_bit and collection is not null then collection end)`,
  },
  {
    name: 'collection number used twice in an agency-year',
    sql: `select agency, surv_year, collection_num from collection
           group by agency, surv_year, collection_num having count(*) > 1`,
  },
  {
    name: 'pool number used twice in an agency-year',
    sql: `select agency, surv_year, pool_num from pool
           group by agency, surv_year, pool_num having count(*) > 1`,
  },
  {
    name: 'count or number out of its range',
    sql: `select 'collection' as t, id from collection
           where num_trap < 1 or trap_nights < 1 or collection_num < 1
          union all select 'abundance', id from abundance where num_count < 0
          union all select 'pool', id from pool where num_count < 1 or pool_num < 1`,
  },
  {
    name: 'record refers to another agency',
    sql: `select 'collection.site' as ref, c.id from collection c join site s on s.id = c.site
           where s.agency <> c.agency
          union all select 'pool.site', p.id from pool p join site s on s.id = p.site
           where s.agency <> p.agency
          union all select 'pool_test.pool', t.id from pool_test t join pool p on p.id = t.pool
           where p.agency <> t.agency
          union all select 'user', x.id from (
              select id, agency, user_id from site union all
              select id, agency, user_id from collection union all
              select id, agency, user_id from pool union all
              select id, agency, user_id from pool_test) x
            join app_user u on u.id = x.user_id where u.agency <> x.agency`,
  },
  {
    name: 'active test dated before its collection (D4)',
    sql: `select t.id from pool_test t join pool p on p.id = t.pool and p.deactive_date is null
            left join collection c on c.id = p.collection
           where t.deactive_date is null
             and ${LATEST_TEST_DAY_SQL} < case
                   when c.id is not null and c.collection_date_date_only
                     then (c.collection_date at time zone 'UTC')::date
                   else ((coalesce(c.collection_date, p.collection_date) at time zone 'UTC')
                          - interval '12 hours')::date end`,
  },
  {
    name: 'not exactly one live Zero Site per agency (D6)',
    sql: `select a.id, (select count(*) from site s where s.agency = a.id and s.code = '000000'
                         and s.delete_date is null and s.deactive_date is null) as n
            from agency a
           where (select count(*) from site s where s.agency = a.id and s.code = '000000'
                   and s.delete_date is null and s.deactive_date is null) <> 1`,
  },
  {
    name: 'site code live twice in an agency',
    sql: `select agency, code from site where delete_date is null and deactive_date is null
           group by agency, code having count(*) > 1`,
  },
  {
    name: 'records-service idempotency key claimed but never answered or released',
    sql: `select agency, key, path from idempotency_key where status is null`,
  },
  {
    name: 'BFF journal key forwarded but never answered or released',
    sql: `select agency_id, idem_key, path from bff_idempotency where state <> 'answered'`,
  },
  {
    name: 'two idempotency keys answered with one record',
    // A batch's answer names its records in `results` (the next two checks), not in `id`.
    sql: `select agency, path, response->>'id' as id from idempotency_key
           where status between 200 and 299 and response->>'id' is not null
           group by agency, path, response->>'id' having count(*) > 1
          union all
          select agency_id, path, (response::jsonb)->>'id' from bff_idempotency
           where state = 'answered' and status between 200 and 299 and response like '{%'
             and (response::jsonb)->>'id' is not null
           group by agency_id, path, (response::jsonb)->>'id' having count(*) > 1`,
  },
  {
    name: 'idempotent create answered with a record that is not stored',
    sql: `select k.agency, k.path, k.response->>'id' as id from idempotency_key k
           where k.status between 200 and 299 and rtrim(k.path, '/') <> '/v1/site/batch'
             and not exists (
             select 1 from (
               select 'site' as t, id, agency from site union all
               select 'collection', id, agency from collection union all
               select 'pool', id, agency from pool union all
               select 'test', id, agency from pool_test) r
             where r.agency = k.agency and r.id::text = k.response->>'id'
               and r.t = case rtrim(k.path, '/') when '/v1/site' then 'site'
                                     when '/v1/arthropod/collection' then 'collection'
                                     when '/v1/arthropod/pool' then 'pool'
                                     when '/v1/arthropod/pool/test' then 'test' end)`,
  },
  {
    name: 'idempotent site batch answered with a site that is not stored',
    sql: `select k.agency, k.path, r->>'id' as id
            from idempotency_key k, jsonb_array_elements(k.response->'results') r
           where rtrim(k.path, '/') = '/v1/site/batch' and k.status between 200 and 299
             and not exists (select 1 from site s
                              where s.agency = k.agency and s.id::text = r->>'id')`,
  },
];

export type Violation = { name: string; count: number; sample: unknown[] };

/** Runs every invariant; returns the ones broken, each with up to five offending rows. */
export async function checkInvariants(db: Queryable): Promise<Violation[]> {
  const out: Violation[] = [];
  for (const { name, sql } of INVARIANTS) {
    const { rows } = await db.query(sql);
    if (rows.length > 0) out.push({ name, count: rows.length, sample: rows.slice(0, 5) });
  }
  return out;
}
