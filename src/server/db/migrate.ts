import type { Database } from './database';
import { MIGRATIONS } from './migrations';
import { refreshStatistics } from './refresh-statistics';

export type Migration = { version: number; name: string; sql: string };

/** Advisory lock key held while migrating: one migrating process at a time per database. */
const MIGRATION_LOCK = 727274;

/**
 * Applies every migration not yet applied, in version order, each in its own transaction.
 * An advisory lock keeps several processes sharing one PostgreSQL from migrating at once.
 */
export async function migrate(
  db: Database,
  migrations: Migration[] = MIGRATIONS,
): Promise<number[]> {
  // The lock comes first, also for creating the bookkeeping table: two processes starting on a
  // fresh PostgreSQL would otherwise both run `create table if not exists` at once, and one of
  // them fails on the catalog's unique index.
  let level = await db.transaction(async (tx) => {
    await tx.query(`select pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await tx.query(
      `create table if not exists schema_migration (version int primary key, name text not null, applied_at timestamptz not null default now())`,
    );
    const { rows } = await tx.query<{ version: number; name: string }>(
      'select version, name from schema_migration order by version',
    );
    // A level this code does not know: a newer version migrated this database, and its tables
    // may no longer be what this version reads and writes. Refuse before anything runs on it.
    const known = new Set(migrations.map((m) => m.version));
    const unknown = rows.filter((r) => !known.has(Number(r.version)));
    if (unknown.length > 0) {
      throw new Error(
        `This database was migrated by a newer version of Trapline (migration ${unknown
          .map((r) => `${r.version} ${r.name}`)
          .join(', ')}, unknown to this version); refusing to start on it. ` +
          'Run the newer version, or restore a backup made before the upgrade.',
      );
    }
    return rows.length > 0 ? Number(rows[rows.length - 1].version) : 0;
  });
  const applied: number[] = [];
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    let did: boolean;
    try {
      did = await db.transaction(async (tx) => {
        await tx.query(`select pg_advisory_xact_lock(${MIGRATION_LOCK})`);
        const { rows } = await tx.query('select 1 from schema_migration where version = $1', [
          m.version,
        ]);
        if (rows.length > 0) return false;
        await tx.exec(m.sql);
        await tx.query('insert into schema_migration (version, name) values ($1, $2)', [
          m.version,
          m.name,
        ]);
        return true;
      });
    } catch (err) {
      // One transaction per migration: nothing of this one stays, the earlier ones do.
      throw new Error(
        `Migration ${m.version} (${m.name}) failed and was rolled back: the database stays at ` +
          `migration level ${level}, nothing of ${m.version} applied. Fix the cause below (or ` +
          `restore a backup) and start again; the start carries on from there. Cause: ${
            err instanceof Error ? err.message : String(err)
          }`,
        { cause: err },
      );
    }
    if (did) applied.push(m.version);
    level = Math.max(level, m.version);
  }
  // A migration may add indexes or rewrite rows; the planner needs statistics to use them, and
  // PGlite has no autovacuum to gather them. Only tables that changed are analysed: nothing on a
  // fresh database, every table holding rows on the first start of an install never analysed.
  if (applied.length > 0) await refreshStatistics(db);
  return applied;
}
