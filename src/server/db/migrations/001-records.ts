import type { Migration } from '../migrate';

/**
 * The records service's tables. Every record row carries its `agency`; every query of a record
 * filters by the caller's agency, so another agency's record is indistinguishable from none.
 * Rows are never hard-deleted: `delete_date` (sites) and `deactive_date` (others) retire them.
 */
export const recordsSchema: Migration = {
  version: 1,
  name: 'records',
  sql: `
create table region (
  id serial primary key,
  name text not null,
  namelsad text,
  type text,
  geoid text,
  parent int references region(id)
);

create table agency (
  id serial primary key,
  code text,
  name text not null,
  state_acronym text,
  region int references region(id),
  shape jsonb
);

create table app_user (
  id serial primary key,
  agency int not null references agency(id),
  username text not null unique,
  name text,
  role text not null check (role in ('manager', 'technician')),
  password_hash text not null,
  active boolean not null default true
);

-- Login tokens (expire) and agency tokens (long-lived, manager rights). Only hashes are stored.
create table api_token (
  id serial primary key,
  agency int not null references agency(id),
  user_id int references app_user(id),
  kind text not null check (kind in ('login', 'agency')),
  token_hash text not null unique,
  created_at timestamptz not null default now(),
  expires_at timestamptz,
  revoked_at timestamptz
);

create table species (id serial primary key, full_name text not null, display_name text, type text not null, active boolean not null default true);
create table sex (id serial primary key, name text not null, type text not null, active boolean not null default true);
create table trap (id serial primary key, acronym text not null, name text not null, presence boolean not null default false, active boolean not null default true);
create table lure (id serial primary key, code text not null, description text, weight numeric, active boolean not null default true);
create table coordinate_precision (id serial primary key, name text not null, meters double precision, active boolean not null default true);
create table land_usage (id serial primary key, name text not null, active boolean not null default true);
create table test_method (id serial primary key, name text not null, acronym text, sensitivity int, active boolean not null default true);
create table test_target (id serial primary key, acronym text not null, name text not null, vector text, icd_10 text, active boolean not null default true);
create table test_status (id serial primary key, name text not null, description text, active boolean not null default true);

create table site (
  id serial primary key,
  agency int not null references agency(id),
  user_id int references app_user(id),
  code text not null,
  name text not null,
  coordinate_precision int not null references coordinate_precision(id),
  lon double precision not null,
  lat double precision not null,
  active_date timestamptz,
  deactive_date timestamptz,
  address_1 text,
  address_2 text,
  city text,
  comments text,
  elevation numeric,
  postal_code text,
  region int references region(id),
  revision_comments text,
  site_population text,
  site_land_usage int[],
  site_land_usage_custom text[],
  add_date timestamptz not null default now(),
  updated timestamptz not null default now(),
  delete_date timestamptz
);
create index site_agency_code on site (agency, code);
create index site_agency_updated on site (agency, updated);

create table location (
  id serial primary key,
  table_name text not null,
  record_id int,
  agency int not null references agency(id),
  lon double precision not null,
  lat double precision not null,
  coordinate_precision int references coordinate_precision(id)
);

create table collection (
  id serial primary key,
  agency int not null references agency(id),
  user_id int references app_user(id),
  site int references site(id),
  location int references location(id),
  collection_date timestamptz not null,
  collection_date_date_only boolean not null default true,
  collection_num int not null,
  comments text,
  identified_by text,
  num_trap int not null,
  surv_year int not null,
  trap int not null references trap(id),
  trap_nights int not null,
  trap_problem_bit boolean not null default false,
  add_date timestamptz not null default now(),
  updated timestamptz not null default now(),
  deactive_date timestamptz,
  constraint collection_num_unique unique (agency, surv_year, collection_num)
);
create index collection_agency_date on collection (agency, collection_date);
create index collection_site on collection (site);

create table abundance (
  id serial primary key,
  collection int not null references collection(id),
  agency int not null references agency(id),
  species int not null references species(id),
  sex int not null references sex(id),
  num_count int not null,
  add_date timestamptz not null default now(),
  deactive_date timestamptz
);
create index abundance_collection on abundance (collection);

create table record_lure (
  id serial primary key,
  table_name text not null default 'collection',
  record_id int not null,
  agency int not null references agency(id),
  lure int not null references lure(id),
  add_date timestamptz not null default now(),
  deactive_date timestamptz
);
create index record_lure_record on record_lure (table_name, record_id);

create table pool (
  id serial primary key,
  agency int not null references agency(id),
  user_id int references app_user(id),
  collection int references collection(id),
  site int references site(id),
  location int references location(id),
  surv_year int not null,
  pool_num int not null,
  num_count int not null,
  species int not null references species(id),
  sex int not null references sex(id),
  primary_source_bit boolean not null default true,
  primary_source int references collection(id),
  comments text,
  collection_date timestamptz,
  trap int references trap(id),
  add_date timestamptz not null default now(),
  updated timestamptz not null default now(),
  deactive_date timestamptz,
  constraint pool_num_unique unique (agency, surv_year, pool_num)
);
create index pool_collection on pool (collection);

create table pool_test (
  id serial primary key,
  agency int not null references agency(id),
  user_id int references app_user(id),
  pool int not null references pool(id),
  method int not null references test_method(id),
  target int not null references test_target(id),
  status int not null references test_status(id),
  test_date timestamptz not null,
  test_agency int not null references agency(id),
  value double precision,
  comments text,
  add_date timestamptz not null default now(),
  updated timestamptz not null default now(),
  deactive_date timestamptz
);
create index pool_test_pool on pool_test (pool);

-- Idempotent creates (contract §9): one row per (agency, key); response null while in flight.
create table idempotency_key (
  agency int not null references agency(id),
  key text not null,
  request_hash text not null,
  method text not null,
  path text not null,
  status int,
  response jsonb,
  created_at timestamptz not null default now(),
  primary key (agency, key)
);
`,
};
