import type { Migration } from '../migrate';

/**
 * Keeps a list page's cost flat as an agency's history grows (contract §4 lists: always
 * `agency = $1 and deactive_date is null`, plus the app's and the public clients' common filters
 * and sorts).
 *
 * Indexes, partial on `deactive_date is null` where lists are their reader, so retired rows cost
 * nothing; a filtered count is an index-only scan of the matching entries, not of the table:
 * - `(agency, id)`: the default sort (id) reads the first page in index order and stops;
 * - `(agency, surv_year, id)`: a year's page and count;
 * - `(agency, site, collection_date)`: a site's collections newest first, and their count;
 * - `(agency, collection_date)` of pools and `(agency, test_date)` of tests: date-sorted pages;
 * - `(agency, updated)`: the app's incremental pull (`query[updated][$gt]`).
 *
 * `live_record_count`: the number of active collections, pools (by species type) and tests of
 * each agency, kept by triggers in the writing transaction, so the `count` of an unfiltered list
 * is one row, not a scan of every record the agency ever filed. Exact whoever writes (the
 * service, a script, another process on a shared PostgreSQL); the initial counts come from the
 * rows present when this migration runs.
 *
 * Pools carry their collection's date (every write path keeps `pool.collection_date` equal to
 * it); the backfill makes that hold for rows written before, so the pool list filters and sorts
 * on the pool's own column, which an index serves, instead of joining every collection.
 */
export const listIndexes: Migration = {
  version: 4,
  name: 'list-indexes',
  sql: `
update pool p set collection_date = c.collection_date
  from collection c
 where c.id = p.collection and p.collection_date is distinct from c.collection_date;

create index collection_live_agency_id on collection (agency, id) where deactive_date is null;
create index collection_live_agency_year_id on collection (agency, surv_year, id)
  where deactive_date is null;
create index collection_live_agency_site_date on collection (agency, site, collection_date)
  where deactive_date is null;
create index collection_agency_updated on collection (agency, updated);

create index pool_live_agency_id on pool (agency, id) where deactive_date is null;
create index pool_live_agency_date on pool (agency, collection_date) where deactive_date is null;
create index pool_agency_updated on pool (agency, updated);

create index pool_test_live_agency_id on pool_test (agency, id) where deactive_date is null;
create index pool_test_live_agency_date on pool_test (agency, test_date)
  where deactive_date is null;
create index pool_test_agency_updated on pool_test (agency, updated);

-- species_type: the pool's species type (pool lists are per type); '' for other tables.
create table live_record_count (
  table_name text not null,
  agency int not null,
  species_type text not null default '',
  n bigint not null,
  primary key (table_name, agency, species_type)
);

insert into live_record_count (table_name, agency, n)
  select 'collection', agency, count(*) from collection where deactive_date is null group by agency;
insert into live_record_count (table_name, agency, species_type, n)
  select 'pool', p.agency, coalesce(s.type, ''), count(*)
    from pool p left join species s on s.id = p.species
   where p.deactive_date is null group by 2, 3;
insert into live_record_count (table_name, agency, n)
  select 'pool_test', agency, count(*) from pool_test where deactive_date is null group by agency;

${liveCountTriggers('collection', null)}
${liveCountTriggers('pool', 'species')}
${liveCountTriggers('pool_test', null)}
`,
};

/**
 * Statement-level triggers keeping `live_record_count` of a table: one upsert per statement and
 * agency whatever the number of rows (a row-level trigger rewrites the counter row once per row,
 * and a bulk insert's chain of versions of that one row made it quadratic). A row counts while
 * `deactive_date` is null; an update that retires nothing and moves nothing writes no counter.
 * `speciesColumn`: the column whose species' type keys the count (pools), or none.
 */
function liveCountTriggers(table: string, speciesColumn: string | null): string {
  const kind = speciesColumn ? `coalesce(s.type, '')` : `''`;
  const join = (rows: string) =>
    speciesColumn ? `${rows} r left join species s on s.id = r.${speciesColumn}` : `${rows} r`;
  const fn = `live_record_count_${table}`;
  const upsert = (select: string) => `
    insert into live_record_count as l (table_name, agency, species_type, n)
    select '${table}', d.agency, d.kind, sum(d.n) from (${select}) d
     group by d.agency, d.kind having sum(d.n) <> 0
    on conflict (table_name, agency, species_type) do update set n = l.n + excluded.n;`;
  const live = (rows: string, n: number) =>
    `select r.agency, ${kind} as kind, ${n} as n from ${join(rows)} where r.deactive_date is null`;
  return `
create function ${fn}() returns trigger
language plpgsql as $$
begin
  if TG_OP = 'INSERT' then${upsert(live('new_rows', 1))}
  elsif TG_OP = 'UPDATE' then${upsert(`${live('new_rows', 1)} union all ${live('old_rows', -1)}`)}
  else${upsert(live('old_rows', -1))}
  end if;
  return null;
end
$$;
create trigger ${table}_live_count_insert after insert on ${table}
  referencing new table as new_rows for each statement execute function ${fn}();
create trigger ${table}_live_count_update after update on ${table}
  referencing old table as old_rows new table as new_rows for each statement execute function ${fn}();
create trigger ${table}_live_count_delete after delete on ${table}
  referencing old table as old_rows for each statement execute function ${fn}();
`;
}
