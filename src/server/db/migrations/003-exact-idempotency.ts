import type { Migration } from '../migrate';

/**
 * Exactly-once creates (issue "Nothing lost, ever").
 * - `idempotency_key.claim_id`: the request that holds a key. A create stores its answer in its own
 *   transaction only while it still holds the claim, so a claim taken over after a crash can never
 *   let two transactions both create the record.
 * - `bff_idempotency.record_id`: the record a key's answer named. Reconciliation never gives a
 *   record that the journal already gave to another key.
 */
export const exactIdempotency: Migration = {
  version: 3,
  name: 'exact-idempotency',
  sql: `
alter table idempotency_key add column claim_id text;
alter table bff_idempotency add column record_id bigint;
create index bff_idempotency_record on bff_idempotency (agency_id, path, record_id)
  where record_id is not null;
`,
};
