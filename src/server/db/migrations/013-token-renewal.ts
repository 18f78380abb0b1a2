import type { Migration } from '../migrate';

/**
 * Login tokens can be exchanged once for a new one (POST /login/renew, issue 35): `renewed_at`
 * marks a token already exchanged, `family` ties every token of one sign-in to its first
 * (null on the first itself), so a token exchanged twice ends the whole sign-in. The BFF's
 * `renew_refused` marks a session whose token the upstream will not renew (refused, revoked, or
 * an upstream without the route): it is not asked again.
 */
export const tokenRenewal: Migration = {
  version: 13,
  name: 'token-renewal',
  sql: `
alter table api_token add column renewed_at timestamptz;
alter table api_token add column family int;
create index api_token_family on api_token (family) where family is not null;
alter table bff_session add column renew_refused boolean not null default false;
`,
};
