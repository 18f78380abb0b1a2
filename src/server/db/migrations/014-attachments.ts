import type { Migration } from '../migrate';

/**
 * Photos of records (contract §13), kept by the BFF beside its sessions and journal so that
 * several BFF processes on one PostgreSQL share them. One row per tus upload: `received` bytes
 * are stored in `bff_attachment_chunk` as they arrive (a cut upload resumes from there), and the
 * row is `complete` once `received = bytes`; only complete rows are listed and served.
 * `bytes` is declared at creation, so the agency's quota counts an upload from its first request.
 * (agency_id, photo_id) is unique: the tablet's second upload of one photo continues the first.
 */
export const attachments: Migration = {
  version: 14,
  name: 'attachments',
  sql: `
create table bff_attachment (
  id int generated always as identity primary key,
  upload_id text not null unique,
  photo_id text not null,
  agency_id int not null,
  username text not null,
  entity text not null check (entity in ('site', 'collection', 'pool')),
  record int not null,
  filename text not null,
  content_type text not null,
  taken_at timestamptz,
  bytes int not null check (bytes >= 0),
  received int not null default 0 check (received >= 0 and received <= bytes),
  complete boolean not null default false,
  created_at timestamptz not null default now(),
  add_date timestamptz,
  unique (agency_id, photo_id)
);
create index bff_attachment_record on bff_attachment (agency_id, entity, record) where complete;

create table bff_attachment_chunk (
  attachment_id int not null references bff_attachment (id) on delete cascade,
  start_at int not null,
  data bytea not null,
  primary key (attachment_id, start_at)
);
`,
};
