import type { Migration } from '../migrate';

/** The lookup tables a record may only name while their entry is active (contract §5). */
export const VERSIONED_LOOKUP_TABLES = [
  'species',
  'sex',
  'trap',
  'lure',
  'coordinate_precision',
  'land_usage',
  'test_method',
  'test_target',
  'test_status',
] as const;

/**
 * One counter that moves whenever a lookup table changes, in the same transaction as the change:
 * a process may then keep the active lookup entries in memory (records/common/lookup-catalog.ts)
 * and trust them exactly while the counter it reads is the one they were read at. A statement
 * that sees the counter sees the lookup rows of the same snapshot, so a deactivation committed
 * by anyone (another process, an operator's SQL) is seen by the next statement as before.
 *
 * Statement-level triggers: one bump per statement, however many rows it touched (seeding
 * hundreds of species is one bump), TRUNCATE included. The row lock on the one counter row
 * orders concurrent changes; lookups change rarely, so it never waits in practice.
 */
export const lookupVersion: Migration = {
  version: 9,
  name: 'lookup-version',
  sql: `
create table lookup_version (
  only_row boolean primary key default true check (only_row),
  version bigint not null default 0
);
insert into lookup_version default values;

create function bump_lookup_version() returns trigger
language plpgsql as $$
begin
  update lookup_version set version = version + 1;
  return null;
end $$;
${VERSIONED_LOOKUP_TABLES.map(
  (table) => `
create trigger ${table}_lookup_version
  after insert or update or delete or truncate on ${table}
  for each statement execute function bump_lookup_version();`,
).join('')}
`,
};
