import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/server/db/database';
import { openDatabase } from '../../../src/server/db/open-database';
import { buildRecords } from '../../../src/server/records/app';
import { CLAIM_LEASE_MS } from '../../../src/server/records/idempotency';
import { buildTestRecords, type TestRecords } from '../helpers/records-app';
import { lockRace, type LockRace } from './helpers/lock-race';

/**
 * Two records-service instances on one PostgreSQL database (as `npm start -- --workers 2` runs
 * them), each with its own connections: one Idempotency-Key sent to both at once, and a retry to
 * the second while the first, past its claim's lease, still waits inside its create. Exactly one
 * record either way, and every answer that names a record names that one.
 */
const adminUrl = process.env.TRAPLINE_TEST_DATABASE_URL;

describe.runIf(adminUrl)('one key at two records-service instances on PostgreSQL', () => {
  let t: TestRecords;
  let secondDb: Database;
  let second: FastifyInstance;
  let token: string;
  let locks: LockRace;
  /** The second instance's clock runs ahead by this much (a claim of the first looks old). */
  let ahead = 0;

  beforeAll(async () => {
    t = await buildTestRecords();
    const { rows } = await t.db.query<{ name: string }>('select current_database() as name');
    const url = new URL(adminUrl as string);
    url.pathname = `/${rows[0].name}`;
    secondDb = await openDatabase({ databaseUrl: url.toString() });
    second = await buildRecords({ db: secondDb, now: () => new Date(Date.now() + ahead) });
    await second.ready();
    token = await t.login('demo-tech');
    locks = await lockRace(t, adminUrl as string);
  }, 120_000);
  afterAll(async () => {
    await locks?.close();
    await second?.close();
    await secondDb?.close();
    await t?.close();
  });

  const post = (app: FastifyInstance, key: string, body: unknown) =>
    app.inject({
      method: 'POST',
      url: '/v1/arthropod/collection',
      headers: { ...t.auth(token), 'idempotency-key': key },
      payload: body as object,
    });
  const night = (date: string) => ({
    collection_date: date,
    num_trap: 1,
    trap: 1,
    trap_nights: 1,
    location: { shape: { type: 'Point', coordinates: [-121.5, 38.6] }, coordinate_precision: 1 },
    arthropods: [{ species: 1, sex: 4, num_count: 3 }],
  });
  const stored = async (date: string) =>
    (
      await t.db.query<{ id: number }>(
        'select id from collection where collection_date = $1::date::timestamptz',
        [date],
      )
    ).rows.map((r) => r.id);

  it('creates one record from the same key sent to both at once', async () => {
    const body = night('2026-08-01');
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => post(i % 2 ? second : t.app, key, body)),
    );
    const ids = await stored('2026-08-01');
    expect(ids).toHaveLength(1);
    for (const a of answers) {
      if (a.statusCode === 201) expect(a.json<{ id: number }>().id).toBe(ids[0]);
      else expect(a.json()).toMatchObject({ error: { code: 'idempotency_in_flight' } });
    }
    const again = await post(second, key, body);
    expect(again.statusCode).toBe(201);
    expect(again.json<{ id: number }>().id).toBe(ids[0]);
  });

  it('creates one record when a retry takes over the key while the first still waits in its create', async () => {
    const body = night('2026-08-02');
    const key = randomUUID();
    ahead = CLAIM_LEASE_MS + 5_000;
    try {
      const [first, retry] = await locks.race(
        'lock table collection in share mode',
        () => post(t.app, key, body),
        () => post(second, key, body),
      );
      const ids = await stored('2026-08-02');
      expect(ids).toHaveLength(1);
      // The retry took the key over and made the record; the first, which lost its claim while
      // it waited, rolled back instead of making a second one.
      expect(retry.statusCode).toBe(201);
      expect(retry.json<{ id: number }>().id).toBe(ids[0]);
      expect(first.statusCode).toBe(409);
      expect(first.json()).toMatchObject({ error: { code: 'idempotency_in_flight' } });
      // Every later retry, at either instance, gets the record made.
      for (const app of [t.app, second]) {
        const again = await post(app, key, body);
        expect(again.statusCode).toBe(201);
        expect(again.json()).toEqual(retry.json());
      }
    } finally {
      ahead = 0;
    }
  });
});
