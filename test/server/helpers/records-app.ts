import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../src/server/db/database';
import { buildRecords, type RecordsOptions } from '../../../src/server/records/app';
import type { SeededAccounts } from '../../../src/server/records/seed/seed-demo-agencies';
import { openTestDatabase } from './test-database';
import { seedTestAccounts } from '../../helpers/seed-test-accounts';

/** Password of every seeded account in tests. */
export const TEST_PASSWORD = 'test-password-correct-horse';

export type TestRecords = {
  app: FastifyInstance;
  db: Database;
  accounts: SeededAccounts;
  /** Signs in through POST /login and returns a fresh bearer token. */
  login(username: string): Promise<string>;
  /** `{ authorization: 'Bearer …' }` for a token. */
  auth(token: string): { authorization: string };
  close(): Promise<void>;
};

/**
 * The records service on a fresh database with lookups and the demo accounts (agency 1
 * "Demo Vector Control District": demo-manager, demo-tech; agency 2: neighbor-manager; agency 3
 * an outside lab; each with its Zero Site), all with TEST_PASSWORD. No demo sites or collections.
 * Build once per test file (`beforeAll`) and `close()` in `afterAll`.
 */
export async function buildTestRecords(
  options: Omit<RecordsOptions, 'db'> = {},
): Promise<TestRecords> {
  const db = await openTestDatabase();
  const accounts = await seedTestAccounts(db, TEST_PASSWORD);
  const app = await buildRecords({ ...options, db });
  await app.ready();
  return {
    app,
    db,
    accounts,
    async login(username) {
      const res = await app.inject({
        method: 'POST',
        url: '/login',
        payload: { username, password: TEST_PASSWORD },
      });
      if (res.statusCode !== 200)
        throw new Error(`login ${username} failed: ${res.statusCode} ${res.body}`);
      return (res.json() as { token: string }).token;
    },
    auth: (token) => ({ authorization: `Bearer ${token}` }),
    async close() {
      await app.close();
      await db.close();
    },
  };
}
