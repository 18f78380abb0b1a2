import type { Queryable } from './database';

/** PostgreSQL's autovacuum defaults: analyze after 50 rows + 10 % of the table changed. */
const ANALYZE_BASE = 50;
const ANALYZE_SCALE = 0.1;
/** Vacuum after 1,000 rows + 20 % inserted, or 50 + 20 % dead (autovacuum's defaults). */
const VACUUM_INSERT_BASE = 1000;
const VACUUM_DEAD_BASE = 50;
const VACUUM_SCALE = 0.2;

type TableState = {
  name: string;
  live: number;
  modified: number;
  inserted: number;
  dead: number;
  /** Pages when last analysed or vacuumed (`pg_class.relpages`), and now. */
  pagesThen: number;
  pagesNow: number;
};

export type StatisticsRefresh = { analyzed: string[]; vacuumed: string[] };

/**
 * What PostgreSQL's autovacuum does, for PGlite, which has none: analyses each table of the
 * public schema whose rows changed by more than 50 + 10 % since its last ANALYZE, and vacuums
 * (with analyse) one that gained 1,000 + 20 % inserted or 50 + 20 % dead rows. Without fresh
 * statistics the planner guesses a growing table's row counts and filters, and picks a scan of
 * the whole table for a 100-row page; without VACUUM dead rows are never reclaimed and the
 * visibility map stays empty, so a count cannot be answered from an index.
 *
 * The change counters live in the cumulative statistics, which an unclean stop loses; a table
 * that grew by 10 % in pages since its last ANALYZE is therefore analysed too (pages are on disk).
 * `grownOnly`: only the tables that at least doubled in pages since their last statistics (see
 * below), the round a burst of writes cannot wait for.
 * Table names come from the catalog and are quoted with `quote_ident`, never from input.
 * VACUUM cannot run in a transaction: pass the database, not a transaction.
 */
export async function refreshStatistics(
  db: Queryable,
  options: { grownOnly?: boolean } = {},
): Promise<StatisticsRefresh> {
  const { rows } = await db.query<TableState>(
    `select quote_ident(s.schemaname) || '.' || quote_ident(s.relname) as name,
            s.n_live_tup::float8 as live, s.n_mod_since_analyze::float8 as modified,
            s.n_ins_since_vacuum::float8 as inserted, s.n_dead_tup::float8 as dead,
            c.relpages::float8 as "pagesThen",
            (pg_relation_size(c.oid) / current_setting('block_size')::int)::float8 as "pagesNow"
       from pg_stat_user_tables s join pg_class c on c.oid = s.relid
      where s.schemaname = 'public'
      order by s.relname`,
  );
  const analyzed: string[] = [];
  const vacuumed: string[] = [];
  for (const t of rows) {
    if (options.grownOnly) {
      // A table at least twice the size its statistics know: plans chosen for the smaller table
      // (a scan of a few pages, kept by every prepared statement) no longer fit it. Cheap while
      // a table is small, rare once it is large: a burst analyses each table O(log n) times.
      if (t.pagesNow >= 2 && t.pagesNow >= 2 * t.pagesThen) {
        await db.exec(`analyze ${t.name}`);
        analyzed.push(t.name);
      }
      continue;
    }
    const size = Math.max(t.live, 0);
    const vacuum =
      t.inserted > VACUUM_INSERT_BASE + VACUUM_SCALE * size ||
      t.dead > VACUUM_DEAD_BASE + VACUUM_SCALE * size;
    const grown = t.pagesNow > 1 && t.pagesNow > t.pagesThen * (1 + ANALYZE_SCALE);
    const analyze = grown || t.modified > ANALYZE_BASE + ANALYZE_SCALE * size;
    if (vacuum) {
      await db.exec(`vacuum (analyze) ${t.name}`);
      vacuumed.push(t.name);
      analyzed.push(t.name);
    } else if (analyze) {
      await db.exec(`analyze ${t.name}`);
      analyzed.push(t.name);
    }
  }
  return { analyzed, vacuumed };
}
