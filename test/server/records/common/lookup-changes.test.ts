/**
 * A create checks its lookups against what the database holds at that moment, even though the
 * records service keeps the active lookup entries in memory (records/common/lookup-catalog.ts):
 * every test here first makes a create that reads the lookups, then changes them the way an
 * operator or another process would, with SQL on the same database, and creates again.
 */
import { describe, expect, it } from 'vitest';
import {
  SEX_ID,
  SPECIES_ID,
  TRAP_ID,
  errorOf,
  makeCollection,
  signedInRecords,
} from '../helpers/arthropod-fixtures';

const URL = '/v1/arthropod/collection';

const records = signedInRecords();

const create = (over: Record<string, unknown>) =>
  records.http.post(URL, records.token, makeCollection(over));
const paths = (res: Awaited<ReturnType<typeof create>>) => errorOf(res).fields?.map((f) => f.path);

describe('lookups changed while the service runs', () => {
  it('refuses a lure type deactivated after creates used it, and takes it again once reactivated', async () => {
    expect((await create({ lures: [5] })).statusCode).toBe(201);

    await records.t.db.query('update lure set active = false where id = 5');
    const refused = await create({ lures: [1, 5] });
    expect(refused.statusCode).toBe(422);
    expect(paths(refused)).toEqual(['lures.1']);

    await records.t.db.query('update lure set active = true where id = 5');
    expect((await create({ lures: [1, 5] })).statusCode).toBe(201);
  });

  it('accepts a trap type added after the service started', async () => {
    expect((await create({ trap: TRAP_ID.co2 })).statusCode).toBe(201);
    const { rows } = await records.t.db.query<{ id: number }>(
      `insert into trap (acronym, name) values ('NEW', 'A trap added today') returning id`,
    );
    const res = await create({ trap: rows[0].id });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().trap).toBe(rows[0].id);
  });

  it('refuses a species whose row was removed, naming the row that names it', async () => {
    const { rows } = await records.t.db.query<{ id: number }>(
      `insert into species (full_name, type) values ('Aedes provisorius', 'mosquito') returning id`,
    );
    const arthropods = [
      { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.male, num_count: 2 },
      { species: rows[0].id, sex: SEX_ID.male, num_count: 3 },
    ];
    expect((await create({ arthropods })).statusCode).toBe(201);
    // Not named by any record any more once that collection is deleted and its rows with it.
    await records.t.db.query('delete from abundance where species = $1', [rows[0].id]);
    await records.t.db.query('delete from species where id = $1', [rows[0].id]);
    const refused = await create({ arthropods });
    expect(refused.statusCode).toBe(422);
    expect(paths(refused)).toEqual(['arthropods.1.species']);
  });

  it('keeps a lure type usable when its deactivation was rolled back', async () => {
    expect((await create({ lures: [4] })).statusCode).toBe(201);
    await records.t.db
      .transaction(async (tx) => {
        await tx.query('update lure set active = false where id = 4');
        throw new Error('changed my mind');
      })
      .catch(() => undefined);
    expect((await create({ lures: [4] })).statusCode).toBe(201);
  });

  it('reads a renamed sex: the F-Mixed rule follows the names the database holds now', async () => {
    const mixedAndGravid = [
      { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 4 },
      { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fGravid, num_count: 2 },
    ];
    const before = await create({ arthropods: mixedAndGravid });
    expect(before.statusCode).toBe(422);
    expect(errorOf(before).code).toBe('mixed_condition_conflict');
    const { rows } = await records.t.db.query<{ name: string }>(
      'select name from sex where id = $1',
      [SEX_ID.fMixed],
    );
    try {
      await records.t.db.query(
        `update sex set name = 'Females, condition not recorded' where id = $1`,
        [SEX_ID.fMixed],
      );
      expect((await create({ arthropods: mixedAndGravid })).statusCode).toBe(201);
    } finally {
      await records.t.db.query('update sex set name = $2 where id = $1', [
        SEX_ID.fMixed,
        rows[0].name,
      ]);
    }
    expect((await create({ arthropods: mixedAndGravid })).statusCode).toBe(422);
  });
});
