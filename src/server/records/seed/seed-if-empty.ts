import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Database } from '../../db/database';
import { seedLookups } from './seed-lookups';
import { DEMO_USERS, seedDemoAgencies, type SeededAccounts } from './seed-demo-agencies';
import { seedDemoSites } from './seed-demo-sites';
import { seedDemoActivity, type SeededActivity } from './seed-demo-activity';

export type SeedOptions = {
  /** TRAPLINE_DEMO_PASSWORD; when unset a password is generated. */
  demoPassword?: string;
  /** Where demo-credentials.txt goes when the password was generated (none when unset). */
  dataDir?: string;
  /** Seed the demo sites and a few weeks of collections, pools and tests (default true). */
  demoData?: boolean;
  now?: Date;
};

export type SeedResult =
  | { created: false }
  | {
      created: true;
      accounts: SeededAccounts;
      sites: number;
      activity: SeededActivity;
      /** The demo sign-in, for the caller to print once. */
      credentials: {
        usernames: string[];
        password: string;
        generated: boolean;
        file: string | null;
      };
    };

/**
 * Seeds an empty database (no agency yet): lookups, the demo agencies and accounts with their
 * Zero Sites, agency 1's demo sites and activity. Everything in one transaction under an
 * advisory lock, so two processes starting on one PostgreSQL seed once. A generated password is
 * written to `<dataDir>/demo-credentials.txt` with mode 0600 and returned; it is never logged.
 */
export async function seedIfEmpty(db: Database, options: SeedOptions = {}): Promise<SeedResult> {
  const now = options.now ?? new Date();
  const generated = !options.demoPassword;
  const password = options.demoPassword || randomBytes(12).toString('base64url');
  const result = await db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock(727275)');
    const { rows } = await tx.query<{ n: number }>('select count(*)::int as n from agency');
    if (Number(rows[0].n) > 0) return null;
    await seedLookups(tx);
    const accounts = await seedDemoAgencies(tx, { password });
    let sites = 0;
    let activity: SeededActivity = { collections: 0, pools: 0, tests: 0 };
    if (options.demoData !== false) {
      const seeded = await seedDemoSites(tx, now);
      sites = seeded.length;
      activity = await seedDemoActivity(tx, seeded, now);
    }
    return { accounts, sites, activity };
  });
  if (!result) return { created: false };
  // The demo rows were bulk-inserted: give the planner their statistics now rather than at the
  // first housekeeping round (PGlite has no autovacuum).
  await db.exec('analyze');
  let file: string | null = null;
  if (generated && options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    file = join(options.dataDir, 'demo-credentials.txt');
    const lines = [
      '# Trapline demo accounts (generated at first start; delete this file once noted)',
      ...DEMO_USERS.map((u) => `${u.username}\t${password}`),
      '',
    ];
    writeFileSync(file, lines.join('\n'), { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  return {
    created: true,
    ...result,
    credentials: { usernames: DEMO_USERS.map((u) => u.username), password, generated, file },
  };
}
