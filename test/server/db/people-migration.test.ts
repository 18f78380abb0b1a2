import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../../src/server/db/database';
import { migrate } from '../../../src/server/db/migrate';
import { MIGRATIONS } from '../../../src/server/db/migrations';
import { openEmptyPglite } from '../helpers/test-database';
import { seedTestAccounts } from '../../helpers/seed-test-accounts';

/**
 * Migration 11 (people) on a database that already has accounts: they keep signing in as before
 * (no password becomes temporary), get an add_date, and usernames become unique ignoring case.
 */
let db: Database;
beforeAll(async () => {
  db = await openEmptyPglite();
  await migrate(
    db,
    MIGRATIONS.filter((m) => m.version < 11),
  );
  await seedTestAccounts(db, 'test-password-correct-horse');
  await migrate(db);
});
afterAll(() => db.close());

it('keeps existing accounts as they were, with no temporary password', async () => {
  const { rows } = await db.query<{
    username: string;
    password_expires_at: unknown;
    last_login: unknown;
    add_date: unknown;
  }>('select username, password_expires_at, last_login, add_date from app_user order by id');
  expect(rows.map((r) => r.username)).toEqual(['demo-manager', 'demo-tech', 'neighbor-manager']);
  for (const r of rows) {
    expect(r.password_expires_at).toBeNull();
    expect(r.last_login).toBeNull();
    expect(r.add_date).not.toBeNull();
  }
});

it('refuses a second username that differs only in case', async () => {
  await expect(
    db.query(
      `insert into app_user (agency, username, role, password_hash) values (1, 'DEMO-TECH', 'technician', 'x')`,
    ),
  ).rejects.toThrow(/unique|duplicate/i);
});
