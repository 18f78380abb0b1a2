import type { Migration } from '../migrate';

/**
 * People of an agency (contract §10). `password_expires_at` set means the password is a
 * temporary one a manager handed out: it must be changed at the first sign-in and stops working
 * at that time. Usernames become unique case-insensitively, as sign-in already compares them.
 * `add_date` of accounts that existed before is the time of this migration (nothing older was
 * kept).
 */
export const people: Migration = {
  version: 11,
  name: 'people',
  sql: `
alter table app_user add column add_date timestamptz not null default now();
alter table app_user add column updated timestamptz not null default now();
alter table app_user add column last_login timestamptz;
alter table app_user add column password_expires_at timestamptz;
create unique index app_user_username_lower on app_user (lower(username));
create index api_token_user on api_token (user_id) where user_id is not null;
`,
};
