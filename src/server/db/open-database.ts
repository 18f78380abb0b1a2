import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from './database';
import { migrate } from './migrate';
import { openPglite } from './pglite-database';
import { openPostgres } from './postgres-database';

export type DatabaseConfig = {
  /** PostgreSQL connection string; when unset the embedded database is used. */
  databaseUrl?: string;
  /** Directory of the embedded database; `undefined` means in memory (tests). */
  dataDir?: string;
};

/** Opens the configured database and applies pending migrations. */
export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  let db: Database;
  if (config.databaseUrl) {
    db = await openPostgres(config.databaseUrl);
  } else if (config.dataDir) {
    mkdirSync(config.dataDir, { recursive: true });
    db = await openPglite(join(config.dataDir, 'pgdata'));
  } else {
    db = await openPglite(undefined);
  }
  await migrate(db);
  return db;
}
