import type { Queryable } from '../../src/server/db/database';
import type { PasswordCost } from '../../src/server/records/auth/password';
import {
  seedDemoAgencies,
  type SeededAccounts,
} from '../../src/server/records/seed/seed-demo-agencies';
import { seedLookups } from '../../src/server/records/seed/seed-lookups';

/**
 * The scrypt cost of the accounts test fixtures seed: N=2^10 instead of the service's 2^15.
 * A check costs what the stored hash says, and at 2^15 each of the run's ~600 sign-ins took
 * ~190 ms of CPU and 32 MiB of fresh memory on a machine slow to hand it out. The service's own
 * cost is what every account it creates gets (test/server/records/password.test.ts), and the
 * processes the suite starts with `npm start` or the records CLI seed with it.
 */
export const TEST_PASSWORD_COST: PasswordCost = { N: 1 << 10 };

/**
 * A test's database as `npm start` seeds it, less the demo data: the lookups, then the demo
 * agencies and their accounts (all with `password`, hashed at TEST_PASSWORD_COST).
 */
export async function seedTestAccounts(db: Queryable, password: string): Promise<SeededAccounts> {
  await seedLookups(db);
  return seedDemoAgencies(db, { password, passwordCost: TEST_PASSWORD_COST });
}
