import type { PGlite } from '@electric-sql/pglite';
import { serialize } from 'pg-protocol';
import type { Row } from './database';
import { joinChunks, readProtocolReply } from './protocol-reply';

/**
 * PostgreSQL refused a prepared statement before running it: its plan no longer fits its tables
 * (feature_not_supported, with this message only: the code alone is also what a function raising
 * it gives, after side effects), or it is gone (invalid_sql_statement_name).
 */
function isStale(err: unknown): boolean {
  const { code, message } = err as { code?: string; message?: string };
  if (code === '26000') return true;
  return code === '0A000' && message === 'cached plan must not change result type';
}

/** Names are unique in the process, so two users of one PGlite never take each other's. */
let nextName = 0;

/**
 * Named prepared statements on PGlite, one per SQL text.
 *
 * PGlite's own `query` sends every statement as an unnamed Parse, Describe, Bind, Describe,
 * Execute and Sync, each a call into the WebAssembly backend, so every call is parsed, analysed
 * and planned again. On the records service's statements that was most of their cost (a 0.14 ms
 * insert runs in 0.04 ms prepared, a 0.13 ms lookup in 0.02 ms). Here a text is parsed and
 * described once under a name; each call after that is one call into the backend with Bind,
 * Execute and Sync, and PostgreSQL reuses the plan when its generic plan costs no more than a
 * custom one (plan_cache_mode auto, as for any driver's prepared statements). The row
 * description is the statement's, read at its Parse: describing the portal again on every call
 * cost ~15 µs a statement (the backend building it, PGlite parsing it), for the same fields.
 *
 * Invariants:
 * - The caller serialises every use of the PGlite instance (pglite-database's one FIFO mutex):
 *   these calls bypass PGlite's own query lock. Calls made here run one at a time too.
 * - A statement's parameter types are those of its first Parse: a column whose type changes
 *   while the process runs needs a restart (migrations run at start, before any statement).
 * - Values are bound exactly as PGlite's `query` binds them (its serializers, by the parameter
 *   types the backend inferred), and rows parse with its parsers, so callers see no difference.
 * - A statement's result columns are those its Describe gave at Parse: PostgreSQL refuses to run a
 *   cached plan whose result type changed ('cached plan must not change result type', isStale),
 *   and the statement is then prepared afresh. Values are asked for as text, as PGlite's are.
 * - A text is remembered only once its Parse succeeded, so a failed Parse leaves no name that
 *   points at nothing. Errors are PGlite's own DatabaseError (code, detail, constraint).
 * - At most `capacity` statements stay prepared; the least recently used is closed.
 */
export function preparedStatements(pg: PGlite, capacity = 256) {
  type Field = { name: string; dataTypeID: number };
  type Statement = { name: string; paramTypes: number[]; fields: Field[] };
  const statements = new Map<string, Statement>();

  async function run(message: Uint8Array, syncToFs: boolean) {
    return pg.execProtocolStream(message, { syncToFs });
  }

  /**
   * Runs a Bind, Execute, Sync: the data rows' text, or the statement's error thrown. Read by
   * protocol-reply.ts from the raw reply (a quarter of the CPU of PGlite's parser on a list page).
   * A chunk is copied as it arrives: it is a view of the backend's buffer, reused for the next.
   */
  async function runRows(message: Uint8Array, syncToFs: boolean): Promise<(string | null)[][]> {
    const chunks: Uint8Array[] = [];
    await pg.execProtocolRawStream(message, {
      syncToFs,
      onRawData: (chunk) => chunks.push(chunk.slice()),
    });
    const reply = readProtocolReply(joinChunks(chunks));
    if (reply.error) throw reply.error;
    return reply.rows;
  }

  async function prepare(sql: string): Promise<Statement> {
    const closing: Buffer[] = [];
    if (statements.size >= capacity) {
      const [oldestSql, oldest] = statements.entries().next().value as [string, Statement];
      statements.delete(oldestSql);
      closing.push(serialize.close({ type: 'S', name: oldest.name }));
    }
    const name = `tl${nextName++}`;
    const messages = await run(
      Buffer.concat([
        ...closing,
        serialize.parse({ name, text: sql }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
      false,
    );
    const description = messages.find((m) => m.name === 'parameterDescription') as
      { dataTypeIDs: number[] } | undefined;
    const rowDescription = messages.find((m) => m.name === 'rowDescription') as
      { fields: Field[] } | undefined;
    const statement = {
      name,
      paramTypes: description?.dataTypeIDs ?? [],
      fields: rowDescription?.fields ?? [],
    };
    statements.set(sql, statement);
    return statement;
  }

  function bindValue(value: unknown, type: number): string | null {
    if (value === null || value === undefined) return null;
    const toText = pg.serializers[type];
    return toText ? toText(value) : String(value);
  }

  /** The data rows' text as rows, by the statement's `fields` (no call describes its portal). */
  function toRows<T extends Row>(texts: readonly (string | null)[][], fields: Field[]): T[] {
    const rows: T[] = [];
    const parsers = fields.map((f) => pg.parsers[f.dataTypeID]);
    for (const values of texts) {
      const row: Row = {};
      for (let i = 0; i < fields.length; i++) {
        const { name, dataTypeID } = fields[i];
        const text = values[i];
        const parse = parsers[i];
        const value = text === null ? null : parse ? parse(text, dataTypeID) : text;
        // A column named __proto__ stays a column, as in PGlite's rows (Object.fromEntries).
        if (name === '__proto__')
          Object.defineProperty(row, name, { value, enumerable: true, writable: true });
        else row[name] = value;
      }
      rows.push(row as T);
    }
    return rows;
  }

  /**
   * Runs `sql` with `params` as a prepared statement. `inTransaction`: the caller holds an open
   * transaction, so the file system is synced at its COMMIT instead of after this statement
   * (what PGlite's `query` does).
   */
  async function runStatement<T extends Row>(
    sql: string,
    params: readonly unknown[],
    inTransaction: boolean,
    isRetry: boolean,
  ): Promise<{ rows: T[] }> {
    let statement = statements.get(sql);
    if (statement) {
      // Most recently used last: the Map's first entry is the one to close.
      statements.delete(sql);
      statements.set(sql, statement);
    } else {
      statement = await prepare(sql);
    }
    const { name, paramTypes, fields } = statement;
    const values = params.map((value, i) => bindValue(value, paramTypes[i]));
    try {
      const texts = await runRows(
        Buffer.concat([
          serialize.bind({ statement: name, values }),
          serialize.execute({}),
          serialize.sync(),
        ]),
        !inTransaction,
      );
      return { rows: toRows<T>(texts, fields) };
    } catch (err) {
      if (!isStale(err)) throw err;
      // The statement no longer fits its tables (a column added or dropped under it: a test's
      // reset, DDL run while serving), or was deallocated: PostgreSQL refused it before running
      // it. Close it and prepare the text afresh; outside a transaction nothing ran, so run it
      // again, once. Inside one, the transaction has failed (where PGlite's query, parsing the
      // text afresh, would have run it): the error reaches the caller, who rolls back.
      statements.delete(sql);
      await run(
        Buffer.concat([serialize.close({ type: 'S', name }), serialize.sync()]),
        false,
      ).catch(() => undefined);
      if (inTransaction || isRetry) throw err;
      return runStatement<T>(sql, params, false, true);
    }
  }

  // One statement at a time, even when a caller does not wait for the last (Promise.all in a
  // transaction): every call reads its reply from what PGlite gathered for the last message
  // sent, so an overlapping call would take another's rows.
  let tail: Promise<unknown> = Promise.resolve();
  function query<T extends Row>(
    sql: string,
    params: readonly unknown[],
    inTransaction: boolean,
  ): Promise<{ rows: T[] }> {
    const result = tail.then(() => runStatement<T>(sql, params, inTransaction, false));
    tail = result.catch(() => undefined);
    return result;
  }

  return { query };
}
