import type { UserRecord } from '#shared/schemas/people';
import type { Role } from '#shared/schemas/auth';
import type { UserRole } from '#shared/schemas/people';
import type { ListSpec } from '../list';

/** The wire role of a stored one: the service stores a `user` as a technician (contract §10). */
export const ROLE_SQL = `case when u.role = 'manager' then 'manager' else 'user' end`;

export const storedRole = (role: UserRole): Role => (role === 'manager' ? 'manager' : 'technician');

/** What a user row is read as; never the password hash. */
export const USER_SELECT = `u.id, u.username, u.name as full_name, ${ROLE_SQL} as role, u.active,
  u.add_date, u.updated, u.last_login`;

export type UserRow = {
  id: number;
  username: string;
  full_name: string | null;
  role: UserRole;
  active: boolean;
  add_date: Date | string;
  updated: Date | string;
  last_login: Date | string | null;
};

const iso = (d: Date | string) => new Date(d).toISOString();

export function serializeUser(row: UserRow): UserRecord {
  return {
    id: row.id,
    username: row.username,
    full_name: row.full_name,
    role: row.role,
    active: row.active,
    add_date: iso(row.add_date),
    updated: iso(row.updated),
    last_login: row.last_login === null ? null : iso(row.last_login),
  };
}

/** GET /v1/user: the shared list parameters (contract §4) over these fields. */
export const USER_LIST: ListSpec = {
  fields: {
    id: { sql: 'u.id', type: 'int' },
    username: { sql: 'u.username', type: 'text' },
    full_name: { sql: 'u.name', type: 'text' },
    role: { sql: ROLE_SQL, type: 'text' },
    active: { sql: 'u.active', type: 'bool' },
    add_date: { sql: 'u.add_date', type: 'date' },
    updated: { sql: 'u.updated', type: 'date' },
    last_login: { sql: 'u.last_login', type: 'date' },
  },
  populate: [],
};
