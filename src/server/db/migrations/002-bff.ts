import type { Migration } from '../migrate';

/**
 * The BFF's own tables: browser sessions and the idempotency journal. They live beside the
 * records tables so that several BFF processes sharing one PostgreSQL share sessions and the
 * journal. Nothing here holds a password or a browser session id: the session row is keyed by
 * the SHA-256 of the cookie's id.
 */
export const bffSchema: Migration = {
  version: 2,
  name: 'bff',
  sql: `
create table bff_session (
  id_hash text primary key,
  upstream_token text not null,
  token_expires_at timestamptz not null,
  user_id int,
  username text not null,
  user_name text,
  role text,
  agency_id int not null,
  agency_name text not null,
  created_at timestamptz not null default now(),
  -- the row is swept after this; the token itself stops at token_expires_at (reauth_required)
  ends_at timestamptz not null
);
create index bff_session_ends_at on bff_session (ends_at);

-- One row per (agency, Idempotency-Key). state 'forwarded': the request went (or was about to go)
-- upstream and no answer is recorded; 'answered': status and body are replayed to every retry.
-- attempt + lease_until: the process that forwarded owns the row until the lease ends; after that
-- (it died, or its request failed without an answer) another may reconcile and take it over.
create table bff_idempotency (
  agency_id int not null,
  idem_key text not null,
  method text not null,
  path text not null,
  body_hash text not null,
  body text not null,
  state text not null check (state in ('forwarded', 'answered')),
  attempt text not null,
  lease_until timestamptz not null,
  status int,
  content_type text,
  response text,
  created_at timestamptz not null default now(),
  forwarded_at timestamptz not null,
  answered_at timestamptz,
  primary key (agency_id, idem_key)
);
create index bff_idempotency_created_at on bff_idempotency (created_at);
`,
};
