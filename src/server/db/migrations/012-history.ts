import type { Migration } from '../migrate';

/**
 * The history of every record (contract §11): one row per create, update or delete of a site,
 * collection (with its abundance rows and lures), pool or pool test, written by the records
 * service in the same SQL transaction as the write itself (records/history/record-history.ts),
 * so the two commit or roll back together: a crash can never leave one without the other.
 *
 * Append-only by construction: a trigger refuses every UPDATE and DELETE of a row, whoever
 * sends it (the service has no code that would; an operator's stray SQL is refused too).
 * TRUNCATE is left to an operator who means it (a restore into an empty data dir never needs it).
 *
 * `user_id` is null for a write made with an agency token (it acts for the agency, not a person).
 * `changes` is `{field: [before, after]}`; `at` is the write's own clock (its `updated`).
 */
export const historySchema: Migration = {
  version: 12,
  name: 'history',
  sql: `
create table record_history (
  id bigserial primary key,
  agency int not null references agency(id),
  entity text not null check (entity in ('site', 'collection', 'pool', 'test')),
  record_id int not null,
  action text not null check (action in ('create', 'update', 'delete')),
  user_id int references app_user(id),
  at timestamptz not null,
  changes jsonb not null
);
create index record_history_record on record_history (agency, entity, record_id, id);
create index record_history_at on record_history (agency, at, id);

create function record_history_is_append_only() returns trigger
language plpgsql as $$
begin
  raise exception 'record_history is append-only: a history row is never changed or removed';
end $$;
create trigger record_history_append_only
  before update or delete on record_history
  for each row execute function record_history_is_append_only();
`,
};
