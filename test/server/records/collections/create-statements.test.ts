import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../../../src/server/db/database';
import { buildRecords } from '../../../../src/server/records/app';
import { openTestDatabase } from '../../helpers/test-database';
import { TEST_PASSWORD } from '../../helpers/records-app';
import { SEX_ID, SPECIES_ID, collectionAtSite } from '../helpers/arthropod-fixtures';
import { seedTestAccounts } from '../../../helpers/seed-test-accounts';

/**
 * What a collection create costs the database, in statements: on the embedded database, parsing
 * and planning are most of a small statement's cost, so each one a create can do without is
 * throughput (issue 13, row 3). The SQL text of each is kept to say which one came back.
 */
function counting(db: Database): { db: Database; statements: string[] } {
  const statements: string[] = [];
  const note = (sql: string) => statements.push(sql.replace(/\s+/g, ' ').trim().slice(0, 60));
  const wrap = (q: Queryable): Queryable => ({
    query: (sql, params) => {
      note(sql);
      return q.query(sql, params);
    },
    exec: (sql) => {
      note(sql);
      return q.exec(sql);
    },
  });
  const proxy = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === 'query' || prop === 'exec') return wrap(target)[prop];
      if (prop === 'transaction')
        return <T>(fn: (tx: Queryable) => Promise<T>) => target.transaction((tx) => fn(wrap(tx)));
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
  return { db: proxy, statements };
}

let db: Database;
let app: FastifyInstance;
let statements: string[];
let token: string;
let site: number;
let collection: number;

beforeAll(async () => {
  db = await openTestDatabase();
  await seedTestAccounts(db, TEST_PASSWORD);
  const counted = counting(db);
  statements = counted.statements;
  app = await buildRecords({ db: counted.db });
  await app.ready();
  const login = await app.inject({
    method: 'POST',
    url: '/login',
    payload: { username: 'demo-tech', password: TEST_PASSWORD },
  });
  token = (login.json() as { token: string }).token;
  const { rows } = await db.query<{ id: number }>(
    `insert into site (agency, code, name, coordinate_precision, lon, lat)
     values (1, '204233', 'Putah Creek N', 1, -121.49, 38.58) returning id`,
  );
  site = rows[0].id;
});
afterAll(async () => {
  await app?.close();
  await db?.close();
});

describe('a collection create, in statements', () => {
  it('reads the caller, then every referenced row with the numbering lock, writes every row in one, and its history row: four statements', async () => {
    const post = () =>
      app.inject({
        method: 'POST',
        url: '/v1/arthropod/collection',
        headers: { authorization: `Bearer ${token}` },
        payload: collectionAtSite(site),
      });
    // A service's first create also reads the active lookup entries, once (lookup-catalog.ts).
    const first = statements.length;
    expect((await post()).statusCode).toBe(201);
    const firstMade = statements.slice(first);
    expect(firstMade, firstMade.join('\n')).toHaveLength(5);
    expect(firstMade.filter((s) => s.includes('from lookup_version'))).toHaveLength(1);

    const before = statements.length;
    const res = await post();
    expect(res.statusCode, res.body).toBe(201);
    collection = (res.json() as { id: number }).id;
    const made = statements.slice(before);
    // The caller's token (1); then, in the transaction: the site and the lookup version (at which
    // the lookups held in memory stand), with the numbering lock, in one read (1); the location,
    // the collection with its number, its abundance rows and its lures in one insert (1); its
    // history row, read from what was written, in the same transaction (1, contract §11).
    expect(made, made.join('\n')).toHaveLength(4);
    // Every row the answer names was written, with the ids the answer gives.
    const answer = res.json() as {
      arthropods: { id: number; species: number; sex: number; num_count: number }[];
      lures: { id: number; lure: number }[];
    };
    const { rows: abundance } = await db.query(
      'select id, species, sex, num_count from abundance where collection = $1 order by id',
      [collection],
    );
    expect(abundance).toEqual(
      answer.arthropods.map(({ id, species, sex, num_count }) => ({ id, species, sex, num_count })),
    );
    const { rows: lures } = await db.query(
      `select id, lure from record_lure where table_name = 'collection' and record_id = $1`,
      [collection],
    );
    expect(lures).toEqual(answer.lures.map(({ id, lure }) => ({ id, lure })));
  });

  it('a pool of that collection: the caller, its lookups, the collection locked, the pooled counts, the numbering lock, the insert with its number, the record read back with its latest test, and its history row: nine', async () => {
    const before = statements.length;
    const res = await app.inject({
      method: 'POST',
      url: '/v1/arthropod/pool',
      headers: { authorization: `Bearer ${token}` },
      payload: { collection, species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 20 },
    });
    expect(res.statusCode, res.body).toBe(201);
    const made = statements.slice(before);
    // …and its history row (contract §11), in the same transaction: nine.
    expect(made, made.join('\n')).toHaveLength(9);
  });
});
