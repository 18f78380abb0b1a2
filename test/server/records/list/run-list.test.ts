import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../../../src/server/db/database';
import { parseListQuery, runList, type ListSpec } from '../../../../src/server/records/list';
import { openTestDatabase } from '../../helpers/test-database';

let db: Database;
const SPEC: ListSpec = {
  fields: {
    id: { sql: 'p.id', type: 'int' },
    owner: { sql: 'p.owner', type: 'int' },
    name: { sql: 'p.name', type: 'text' },
    seen: { sql: 'p.seen', type: 'date' },
    score: { sql: 'p.score', type: 'float' },
    ok: { sql: 'p.ok', type: 'bool' },
  },
};

beforeAll(async () => {
  db = await openTestDatabase();
  await db.exec(
    `create table list_probe (id serial primary key, owner int not null, name text, seen timestamptz, score numeric, ok boolean)`,
  );
  for (let i = 1; i <= 30; i++) {
    await db.query(
      'insert into list_probe (owner, name, seen, score, ok) values ($1, $2, $3, $4, $5)',
      [
        i % 3 === 0 ? 2 : 1,
        i % 5 === 0 ? `Putah Creek ${i}` : `Site ${i}`,
        new Date(Date.UTC(2026, 5, i)).toISOString(),
        i / 2,
        i % 2 === 0,
      ],
    );
  }
});
afterAll(() => db.close());

const list = (url: string) =>
  runList<{ id: number; name: string }>(
    db,
    { select: 'p.id, p.name', from: 'list_probe p', where: 'p.owner = $1', params: [1] },
    parseListQuery(url, SPEC, { firstParam: 2 }),
  );

it('counts every match before paging and returns the asked page', async () => {
  const { rows, count } = await list('?pageSize=5&page=2');
  expect(count).toBe(20);
  expect(rows.map((r) => r.id)).toEqual([8, 10, 11, 13, 14]);
});

it('runs every operator and type against the database with bound values', async () => {
  expect(
    (
      await list('?query[seen][$between][0]=2026-06-01&query[seen][$between][1]=2026-06-05')
    ).rows.map((r) => r.id),
  ).toEqual([1, 2, 4, 5]);
  expect(
    (await list('?query[id][$in][0]=2&query[id][$in][1]=3&query[id][$in][2]=4')).rows.map(
      (r) => r.id,
    ),
  ).toEqual([2, 4]);
  expect((await list('?query[score][$gte]=14&query[ok]=false')).rows.map((r) => r.id)).toEqual([
    29,
  ]);
  expect((await list('?query[name][$ne]=Site 1&query[id][$lt]=3')).rows.map((r) => r.id)).toEqual([
    2,
  ]);
});

it('searches case-insensitively and sorts descending', async () => {
  const { rows, count } = await list('?search=putah&searchFields[]=name&sort=-id');
  expect(count).toBe(4);
  expect(rows.map((r) => r.name)).toEqual([
    'Putah Creek 25',
    'Putah Creek 20',
    'Putah Creek 10',
    'Putah Creek 5',
  ]);
});
