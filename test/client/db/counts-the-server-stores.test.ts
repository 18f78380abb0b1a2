import { afterEach, describe, expect, it } from 'vitest';
import { createCollection } from '../../../src/client/db/create-collection';
import { createSite } from '../../../src/client/db/create-site';
import type { TraplineDb } from '../../../src/client/db/database';
import { RepositoryError } from '../../../src/client/db/repository-error';
import { makeCollection, makeDb, makeSite } from './factories';

/**
 * The records service stores counts as PostgreSQL `int` and answers a larger one with 422
 * "Must be at most 2147483647" (server/records/common/int4-errors.ts; the same body is refused in
 * test/server/records/counts-the-server-stores.test.ts). A count typed with a few zeros too many
 * in the field was saved offline and parked hours later, when the trap was long gone: the tablet
 * refuses it at save time with the service's words.
 */
let db: TraplineDb;
afterEach(async () => {
  await db?.delete();
});

async function refusal(p: Promise<unknown>): Promise<RepositoryError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(RepositoryError);
  return e as RepositoryError;
}

describe('counts beyond what the service stores', () => {
  it('refuses an abundance count over 2147483647 at save time, as the service does', async () => {
    db = makeDb();
    const site = await createSite(db, makeSite());
    const e = await refusal(
      createCollection(
        db,
        site,
        makeCollection({
          arthropods: [
            { species: 1, sex: 1, num_count: 120 },
            { species: 1, sex: 2, num_count: 3_000_000_000 },
          ],
        }),
      ),
    );
    expect(e.fields).toContainEqual({
      path: 'arthropods.1.num_count',
      message: 'Must be at most 2147483647',
    });
    expect(await db.collections.count()).toBe(0);
    expect((await db.outbox.toArray()).filter((e) => e.entity === 'collection').length).toBe(0);
  });

  it('refuses trap nights and number of traps over 2147483647 at save time', async () => {
    db = makeDb();
    const site = await createSite(db, makeSite());
    const e = await refusal(
      createCollection(db, site, makeCollection({ num_trap: 2_147_483_648, trap_nights: 1e10 })),
    );
    expect(e.fields).toEqual(
      expect.arrayContaining([
        { path: 'num_trap', message: 'Must be at most 2147483647' },
        { path: 'trap_nights', message: 'Must be at most 2147483647' },
      ]),
    );
  });

  it('still saves the largest count the service stores', async () => {
    db = makeDb();
    const site = await createSite(db, makeSite());
    const id = await createCollection(
      db,
      site,
      makeCollection({ arthropods: [{ species: 1, sex: 1, num_count: 2_147_483_647 }] }),
    );
    expect(await db.collections.get(id)).toBeTruthy();
  });
});
