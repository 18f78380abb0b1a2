import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparedStatements } from '../../../src/server/db/pglite-prepared';

/**
 * The prepared path must be invisible to callers: the same rows, the same types, the same
 * errors as PGlite's own `query`, with a bounded number of statements kept in the backend.
 */
let pg: PGlite;
beforeAll(async () => {
  pg = await PGlite.create();
  await pg.exec(`create table probe (
    id bigserial primary key, n int not null unique, label text, at timestamptz,
    doc jsonb, tags text[], ratio numeric(6,3), flag boolean, raw bytea)`);
});
afterAll(() => pg.close());

const preparedCount = async () =>
  (await pg.query<{ c: number }>('select count(*)::int as c from pg_prepared_statements')).rows[0]
    .c;

describe('prepared statements on PGlite', () => {
  it('binds and parses every type the records service uses exactly as PGlite query does', async () => {
    const prepared = preparedStatements(pg);
    const insert = `insert into probe (n, label, at, doc, tags, ratio, flag, raw)
      values ($1, $2, $3, $4, $5, $6, $7, $8) returning *`;
    const values = [
      7,
      "O'Brien; drop table probe; --",
      new Date('2026-06-01T05:30:00.123Z'),
      { species: [1, 2], note: 'é ☂', nested: { deep: null } },
      ['Culex', 'Aedes "x"', ''],
      '12.5',
      false,
      new Uint8Array([0, 255, 10]),
    ];
    const viaPrepared = (await prepared.query(insert, values, false)).rows[0];
    const viaQuery = (await pg.query('select * from probe where id = $1', [viaPrepared.id]))
      .rows[0];
    expect(viaPrepared).toEqual(viaQuery);
    expect(viaPrepared.label).toBe(values[1]);
    expect(viaPrepared.doc).toEqual(values[3]);
    expect(viaPrepared.tags).toEqual(values[4]);
    expect((viaPrepared.at as Date).toISOString()).toBe('2026-06-01T05:30:00.123Z');

    const nulls = await prepared.query(
      'select $1::int as a, $2::text as b, $3::jsonb as c',
      [null, undefined, null],
      false,
    );
    expect(nulls.rows).toEqual([{ a: null, b: null, c: null }]);
  });

  it('answers a repeated statement with fresh values each time, and no rows as an empty list', async () => {
    const prepared = preparedStatements(pg);
    const sql = 'select n, label from probe where n = any($1::int[]) order by n';
    await prepared.query(
      'insert into probe (n, label) values ($1, $2), ($3, $4)',
      [20, 'twenty', 21, 'twenty-one'],
      false,
    );
    expect((await prepared.query(sql, [[20]], false)).rows).toEqual([{ n: 20, label: 'twenty' }]);
    expect((await prepared.query(sql, [[21, 20]], false)).rows).toEqual([
      { n: 20, label: 'twenty' },
      { n: 21, label: 'twenty-one' },
    ]);
    expect((await prepared.query(sql, [[999]], false)).rows).toEqual([]);
  });

  it('rejects with the database error and stays usable after it, inside and outside a transaction', async () => {
    const prepared = preparedStatements(pg);
    const insert = 'insert into probe (n) values ($1) returning n';
    await prepared.query(insert, [30], false);
    await expect(prepared.query(insert, [30], false)).rejects.toMatchObject({
      code: '23505',
      constraint: 'probe_n_key',
    });
    await expect(prepared.query('selec nonsense', [], false)).rejects.toMatchObject({
      code: '42601',
    });

    await pg.exec('BEGIN');
    await prepared.query(insert, [31], true);
    await expect(prepared.query(insert, [31], true)).rejects.toMatchObject({ code: '23505' });
    await pg.exec('ROLLBACK');

    // Nothing of the rolled-back transaction stays, and the statement prepared before it works.
    expect((await prepared.query(insert, [32], false)).rows).toEqual([{ n: 32 }]);
    const { rows } = await pg.query<{ n: number }>(
      'select n from probe where n between 30 and 39 order by n',
    );
    expect(rows.map((r) => r.n)).toEqual([30, 32]);
  });

  it('keeps at most its capacity of statements prepared, and a closed one prepares again', async () => {
    const before = await preparedCount();
    const prepared = preparedStatements(pg, 3);
    for (let i = 0; i < 10; i++) {
      const { rows } = await prepared.query(`select $1::int + ${i} as v`, [1], false);
      expect(rows).toEqual([{ v: 1 + i }]);
    }
    expect((await preparedCount()) - before).toBe(3);
    expect((await prepared.query('select $1::int + 0 as v', [5], false)).rows).toEqual([{ v: 5 }]);
    expect((await preparedCount()) - before).toBe(3);
  });

  it('answers calls made together, inside a transaction, each with its own rows', async () => {
    const prepared = preparedStatements(pg);
    await pg.exec('BEGIN');
    const [a, b, c] = await Promise.all([
      prepared.query('select $1::int as x', [1], true),
      prepared.query('select $1::text as y', ['b'], true),
      prepared.query('select n from probe where n = $1', [-1], true),
    ]);
    await pg.exec('COMMIT');
    expect([a.rows, b.rows, c.rows]).toEqual([[{ x: 1 }], [{ y: 'b' }], []]);
  });

  it('keeps a column named __proto__ as a column, as PGlite does', async () => {
    const prepared = preparedStatements(pg);
    const sql = 'select 1 as "__proto__", 2 as x';
    expect((await prepared.query(sql, [], false)).rows).toEqual((await pg.query(sql)).rows);
  });

  it('runs a statement once when what it calls fails with the code of a changed plan', async () => {
    const prepared = preparedStatements(pg);
    await pg.exec(`create sequence ran;
      create function fails_once_run() returns int language plpgsql as $$
      begin perform nextval('ran'); raise feature_not_supported using message = 'not here'; end $$`);
    await expect(prepared.query('select fails_once_run()', [], false)).rejects.toMatchObject({
      code: '0A000',
    });
    expect((await pg.query('select last_value from ran')).rows).toEqual([{ last_value: 1 }]);
  });

  it('prepares again after a table it reads changes shape', async () => {
    const prepared = preparedStatements(pg);
    await pg.exec('create table shape (a int); insert into shape values (1)');
    const sql = 'select * from shape';
    expect((await prepared.query(sql, [], false)).rows).toEqual([{ a: 1 }]);
    const baseline = await preparedCount();
    await pg.exec('alter table shape add column b int default 2');
    // PostgreSQL refuses a cached plan whose result type changed; outside a transaction nothing
    // ran, so the statement is prepared again and answers.
    expect((await prepared.query(sql, [], false)).rows).toEqual([{ a: 1, b: 2 }]);
    await pg.exec('alter table shape add column c int default 3');
    await pg.exec('BEGIN');
    // Inside one, the transaction has failed: the error reaches the caller, who rolls back.
    await expect(prepared.query(sql, [], true)).rejects.toMatchObject({ code: '0A000' });
    await pg.exec('ROLLBACK');
    expect((await prepared.query(sql, [], false)).rows).toEqual([{ a: 1, b: 2, c: 3 }]);
    // Column names and types come from the statement's description at Parse, not from each
    // call: a renamed or retyped column is a changed result too, and is answered by its new name.
    await pg.exec('alter table shape rename column b to renamed');
    expect((await prepared.query(sql, [], false)).rows).toEqual([{ a: 1, renamed: 2, c: 3 }]);
    await pg.exec('alter table shape alter column c type text');
    expect((await prepared.query(sql, [], false)).rows).toEqual([{ a: 1, renamed: 2, c: '3' }]);
    // Each refused statement was closed: the text holds one prepared statement, not one per shape.
    expect(await preparedCount()).toBe(baseline);
  });

  it('answers a page larger than the backend sends at once, with text of every width, as PGlite query does', async () => {
    // 3,000 rows of 1- to 4-byte characters: the reply arrives in many chunks, and a character
    // or a message split across two of them must read back whole.
    const prepared = preparedStatements(pg);
    await pg.exec(`create table wide (id int primary key, label text, note text, n bigint)`);
    await pg.exec(`insert into wide
      select g, repeat('aé☂𝄞', g % 17) || ' ' || g, case when g % 5 = 0 then null else '' end, g::bigint * 1000003
      from generate_series(1, 3000) g`);
    const sql = 'select * from wide where id > $1 order by id';
    const { rows } = await prepared.query(sql, [0], false);
    expect(rows).toHaveLength(3000);
    expect(rows).toEqual((await pg.query(sql, [0])).rows);
    expect(rows[16]).toEqual({ id: 17, label: ' 17', note: '', n: 17_000_051 });
    expect(rows[4].note).toBeNull();
  });

  it('rejects with every field of the database error: its message, code, detail and constraint', async () => {
    const prepared = preparedStatements(pg);
    await pg.exec(`create table owned (id int primary key, owner int not null check (owner > 0))`);
    const insert = 'insert into owned (id, owner) values ($1, $2)';
    await prepared.query(insert, [1, 1], false);
    const duplicate = await prepared.query(insert, [1, 2], false).then(
      () => null,
      (err: unknown) => err,
    );
    expect(duplicate).toBeInstanceOf(Error);
    expect(duplicate).toMatchObject({
      message: 'duplicate key value violates unique constraint "owned_pkey"',
      code: '23505',
      detail: 'Key (id)=(1) already exists.',
      constraint: 'owned_pkey',
      table: 'owned',
      severity: 'ERROR',
    });
    await expect(prepared.query(insert, [2, 0], false)).rejects.toMatchObject({
      code: '23514',
      constraint: 'owned_owner_check',
    });
    // And the statement goes on answering after its errors.
    await prepared.query(insert, [2, 2], false);
    expect((await prepared.query('select count(*)::int as n from owned', [], false)).rows).toEqual([
      { n: 2 },
    ]);
  });
});
