import type { Migration } from '../migrate';

/**
 * A created record is the answer of at most one Idempotency-Key (ARCHITECTURE, BFF: "not already
 * given to another key"). Migration 3 indexed `bff_idempotency.record_id` so reconciliation could
 * ask; two reconciliations reading the upstream at the same moment (two BFF processes, or one on
 * PostgreSQL) could still both give one record. A unique index makes giving it atomic: the second
 * write fails, and the BFF answers 409 create_outcome_unknown instead.
 *
 * Reconciliation also asks which other keys are still unsettled ('forwarded'): a partial index
 * keeps that to the few such rows of the agency and path.
 *
 * Mending existing data first: where one record was already given to several keys, the key that
 * was answered first keeps it; the others keep their recorded answer (replayed as before) without
 * the record id, which only ever served to exclude the record from other keys' reconciliation.
 */
export const oneKeyPerRecord: Migration = {
  version: 7,
  name: 'one-key-per-record',
  sql: `
with ranked as (
  select agency_id, idem_key,
         row_number() over (partition by agency_id, path, record_id
                            order by answered_at nulls last, created_at, idem_key) as n
    from bff_idempotency where record_id is not null
)
update bff_idempotency b set record_id = null
  from ranked r where r.agency_id = b.agency_id and r.idem_key = b.idem_key and r.n > 1;

drop index bff_idempotency_record;
create unique index bff_idempotency_one_key_per_record on bff_idempotency (agency_id, path, record_id)
  where record_id is not null;
create index bff_idempotency_unsettled on bff_idempotency (agency_id, path)
  where state = 'forwarded';
`,
};
