import type { Migration } from '../migrate';

/**
 * Contract §6: each agency has exactly one Zero Site (code 000000), created with the agency,
 * never deleted, never recoded, and (Trapline's reading) never deactivated, since collections
 * away from any site go there at any date. Issue 9, D6 showed two live ones could be made
 * (deactivate, create another 000000, reactivate). The service now reserves the code; these
 * constraints hold the rule in the database too.
 *
 * Mending existing data first: in each agency the first undeleted 000000 site (lowest id, the
 * one created with the agency) stays the Zero Site and is active again; later copies are
 * retired with `delete_date` (soft, like DELETE /v1/site: records that name them keep them).
 */
export const zeroSiteSchema: Migration = {
  version: 6,
  name: 'zero-site',
  sql: `
with ranked as (
  select id, row_number() over (partition by agency order by id) as n
    from site where code = '000000' and delete_date is null
)
update site s set delete_date = now(), updated = now(),
       revision_comments = coalesce(s.revision_comments || ' ', '') ||
         '[Retired: a second Zero Site (code 000000) of the agency; the first one stays.]'
  from ranked r where r.id = s.id and r.n > 1;

update site set deactive_date = null, updated = now()
 where code = '000000' and delete_date is null and deactive_date is not null;

create unique index site_one_zero_site on site (agency) where code = '000000' and delete_date is null;

alter table site add constraint site_zero_site_stays_active
  check (code <> '000000' or deactive_date is null or delete_date is not null);
`,
};
