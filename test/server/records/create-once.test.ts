import { createHash, randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRecords } from '../../../src/server/records/app';
import { createOnce } from '../../../src/server/records/create-once';
import { createCollection } from '../../../src/server/records/collections/create-collection';
import { lookupCatalog } from '../../../src/server/records/common/lookup-catalog';
import {
  CLAIM_LEASE_MS,
  KEY_ECHO_HEADER,
  stableStringify,
} from '../../../src/server/records/idempotency';
import { buildTestRecords, type TestRecords } from '../helpers/records-app';

let t: TestRecords;
let tech: string;
let clock = Date.parse('2026-07-14T15:00:00.000Z');

beforeAll(async () => {
  t = await buildTestRecords({ now: () => new Date(clock), tokenTtlSeconds: 10 * 86_400 });
  tech = await t.login('demo-tech');
});
afterAll(() => t.close());

/** A collection at a place of its own; `num_trap` makes look-alikes distinguishable when needed. */
const collection = (over: Record<string, unknown> = {}) => ({
  collection_date: '2026-07-13',
  num_trap: 1,
  trap: 2,
  trap_nights: 1,
  location: { shape: { type: 'Point', coordinates: [-121.5, 38.6] }, coordinate_precision: 1 },
  arthropods: [{ species: 1, sex: 4, num_count: 12 }],
  ...over,
});

const post = (key: string | undefined, body: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/arthropod/collection',
    headers: { ...t.auth(tech), ...(key ? { 'idempotency-key': key } : {}) },
    payload: body as object,
  });

const keyRow = async (key: string) =>
  (
    await t.db.query<{ status: number | null; response: { id: number } | null }>(
      'select status, response from idempotency_key where key = $1',
      [key],
    )
  ).rows[0];

const collectionCount = async () =>
  (await t.db.query<{ n: number }>('select count(*)::int as n from collection')).rows[0].n;

describe('a create and its stored answer commit together', () => {
  it('stores the answer in the create transaction, so the key row names the record before the reply leaves', async () => {
    const key = randomUUID();
    const res = await post(key, collection());
    expect(res.statusCode).toBe(201);
    const row = await keyRow(key);
    expect(row.status).toBe(201);
    expect(row.response?.id).toBe(res.json().id);
  });

  it('echoes the honoured Idempotency-Key on a create, a replay and a refusal, and not without a key', async () => {
    const key = randomUUID();
    const body = collection();
    expect((await post(key, body)).headers[KEY_ECHO_HEADER]).toBe(key);
    const replay = await post(key, body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.headers[KEY_ECHO_HEADER]).toBe(key);
    const refused = await post(randomUUID(), {});
    expect(refused.statusCode).toBe(422);
    expect(refused.headers[KEY_ECHO_HEADER]).toBeDefined();
    expect((await post(undefined, collection())).headers[KEY_ECHO_HEADER]).toBeUndefined();
  });

  it('rolls the create back when its claim was taken over meanwhile: 409 and no record', async () => {
    const key = randomUUID();
    await t.db.query(
      `insert into idempotency_key (agency, key, request_hash, method, path, created_at, claim_id)
       values (1, $1, 'h', 'POST', '/v1/arthropod/collection', now(), 'the-new-owner')`,
      [key],
    );
    const before = await collectionCount();
    // This request claimed the key earlier, and outlived its lease: another took the key over.
    const req = {
      idempotencyClaim: { agency: 1, key, claimId: 'the-old-owner', settled: false },
    } as unknown as FastifyRequest;
    const caller = { agencyId: 1, userId: null, role: 'technician' } as never;
    await expect(
      createOnce(t.db, req, (db) =>
        createCollection(db, lookupCatalog(), caller, collection() as never, new Date(clock)),
      ),
    ).rejects.toMatchObject({ status: 409, code: 'idempotency_in_flight' });
    expect(await collectionCount()).toBe(before);
    expect((await keyRow(key)).status).toBeNull();
  });

  it('answers 409 while an unanswered claim is fresh, and lets a retry take it over once its lease is over', async () => {
    const key = randomUUID();
    const body = collection({ num_trap: 3 });
    // The claim a request left when its process died before its transaction committed.
    const hash = createHash('sha256')
      .update(`POST /v1/arthropod/collection\n${stableStringify(body)}`)
      .digest('hex');
    await t.db.query(
      `insert into idempotency_key (agency, key, request_hash, method, path, created_at, claim_id)
       values (1, $1, $2, 'POST', '/v1/arthropod/collection', $3, 'dead')`,
      [key, hash, new Date(clock).toISOString()],
    );
    const before = await collectionCount();
    const fresh = await post(key, body);
    expect(fresh.statusCode).toBe(409);
    expect(fresh.json().error.code).toBe('idempotency_in_flight');
    clock += CLAIM_LEASE_MS + 1_000;
    const retry = await post(key, body);
    expect(retry.statusCode).toBe(201);
    expect((await keyRow(key)).response?.id).toBe(retry.json().id);
    expect(await collectionCount()).toBe(before + 1);
  });
});

describe('a records service restarted on the embedded database', () => {
  it('releases the claims its previous process left unanswered, so their retries need not wait out the lease', async () => {
    const key = randomUUID();
    await t.db.query(
      `insert into idempotency_key (agency, key, request_hash, method, path, created_at, claim_id)
       values (1, $1, 'h', 'POST', '/v1/arthropod/collection', $2, 'died-with-the-process')`,
      [key, new Date(clock).toISOString()],
    );
    const restarted = await buildRecords({ db: t.db, now: () => new Date(clock) });
    await restarted.ready();
    await restarted.close();
    // On PostgreSQL other live processes may hold claims: only their lease frees them.
    expect(await keyRow(key)).toEqual(t.db.kind === 'pglite' ? undefined : expect.anything());
  });
});
