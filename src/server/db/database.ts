/**
 * One query layer over PGlite (embedded, the default) and PostgreSQL (`DATABASE_URL`).
 * Callers write plain SQL with `$1` placeholders; values are always bound, never concatenated.
 * On PGlite each distinct SQL text is prepared once and its plan reused (pglite-prepared.ts):
 * a text built per request with values in it would be parsed and planned every time, and would
 * push the statements that matter out of the 256 kept.
 */
export type Row = Record<string, unknown>;

export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<{ rows: T[] }>;
  /** Runs a script of several statements with no parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws.
   * On PGlite, which runs one query at a time, transactions and queries are serialised so no
   * other statement interleaves with an open transaction.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * PostgreSQL only (absent on PGlite, which one process owns): LISTEN on `channel` over a
   * connection of its own, calling `onMessage` with each NOTIFY payload. `onEnd` is called once if
   * that connection ends (server restart, network): notifications may have been missed from then
   * on, and the caller must listen again. `close()` ends the connection too.
   */
  listen?(channel: string, onMessage: (payload: string) => void, onEnd: () => void): Promise<void>;
  /**
   * PGlite only: a gzipped tarball of the whole data directory (PGlite's dumpDataDir), taken
   * between transactions after a CHECKPOINT, so it holds every committed write and nothing
   * half-done. What `npm run records -- backup` stores, and what `loadDataDir` starts from.
   */
  dumpDataDir?(): Promise<Blob>;
  close(): Promise<void>;
}
