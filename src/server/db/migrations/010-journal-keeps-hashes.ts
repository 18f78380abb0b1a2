import type { Migration } from '../migrate';

/**
 * The BFF's journal keeps a body only while its key's outcome is open (issue 36 N3): once a key
 * is answered, its body hash matches retries and its answer replays them, so `body` is cleared
 * (nullable from here on). `user_key` (the signed-in username, lower case) lets one user's keys
 * be counted and capped without scanning the agency's.
 */
export const journalKeepsHashes: Migration = {
  version: 10,
  name: 'journal-keeps-hashes',
  sql: `
alter table bff_idempotency alter column body drop not null;
alter table bff_idempotency add column user_key text;
update bff_idempotency set body = null where state = 'answered';
create index bff_idempotency_user on bff_idempotency (agency_id, user_key, created_at)
  where user_key is not null;
`,
};
