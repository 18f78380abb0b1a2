import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createOnce } from '../../../../src/server/records/create-once';
import { createCollection } from '../../../../src/server/records/collections/create-collection';
import { lookupCatalog } from '../../../../src/server/records/common/lookup-catalog';
import { historyList, type HistoryRow } from '../../../../src/shared/schemas/history';
import { historyOfCreate } from '../../../../src/server/records/history/record-history';
import {
  METHOD_ID,
  SEX_ID,
  SPECIES_ID,
  STATUS_ID,
  TARGET_ID,
} from '../../../../src/server/records/seed/lookup-data';
import { errorOf, makeCollection, signedInRecords } from '../helpers/arthropod-fixtures';
import { makeSite } from '../factories/make-site';

const LAB = 3;
const file = signedInRecords('demo-tech');

async function historyOf(entity: string, id: number, token = file.token): Promise<HistoryRow[]> {
  const res = await file.http.get(`/v1/history?entity=${entity}&id=${id}`, token);
  expect(res.statusCode, res.body).toBe(200);
  const body = historyList.parse(res.json());
  expect(body.count).toBe(body.rows.length);
  return body.rows;
}

async function historyRowCount(): Promise<number> {
  const { rows } = await file.t.db.query<{ n: number }>(
    'select count(*)::int as n from record_history',
  );
  return Number(rows[0].n);
}

async function created(url: string, body: unknown, token = file.token): Promise<number> {
  const res = await file.http.post(url, token, body);
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { id: number }).id;
}

const tarsalis = (sex: number, num_count: number) => ({
  species: SPECIES_ID.cxTarsalis,
  sex,
  num_count,
});

describe('GET /v1/history: one row per write, in the write’s transaction', () => {
  it('keeps a site’s create, update and delete with who, when and each field before and after', async () => {
    const manager = await file.t.login('demo-manager');
    const body = makeSite({ name: 'Putah Creek N' });
    const id = await created('/v1/site', body);
    const put = await file.http.put(`/v1/site/${id}`, file.token, { name: 'Putah Creek S' });
    expect(put.statusCode, put.body).toBe(200);
    const del = await file.http.del(`/v1/site/${id}`, manager);
    expect(del.statusCode, del.body).toBe(200);

    const rows = await historyOf('site', id);
    expect(rows.map((r) => r.action)).toEqual(['create', 'update', 'delete']);
    const userId = (name: string) => file.t.accounts.users.find((u) => u.username === name)?.id;
    expect(rows[0].user).toEqual({ id: userId('demo-tech'), full_name: expect.any(String) });
    expect(rows[0].changes.code).toEqual([null, body.code]);
    expect(rows[0].changes.name).toEqual([null, 'Putah Creek N']);
    expect(rows[1].changes).toEqual({ name: ['Putah Creek N', 'Putah Creek S'] });
    expect(rows[1].at).toBe((put.json() as { updated: string }).updated);
    expect(rows[2].user.id).toBe(userId('demo-manager'));
    expect(Object.keys(rows[2].changes)).toEqual(['delete_date']);
    expect(rows[2].changes.delete_date[0]).toBeNull();
    expect(rows.map((r) => r.entity)).toEqual(['site', 'site', 'site']);
    expect(rows.every((r) => r.record === id)).toBe(true);
  });

  it('lists a collection’s abundance and lure changes as the sets before and after', async () => {
    const id = await created(
      '/v1/arthropod/collection',
      makeCollection({ arthropods: [tarsalis(SEX_ID.fMixed, 41)], lures: [1] }),
    );
    const put = await file.http.put(`/v1/arthropod/collection/${id}`, file.token, {
      arthropods: [tarsalis(SEX_ID.fMixed, 14), tarsalis(SEX_ID.male, 3)],
      lures: [2, 1],
      num_trap: 2,
    });
    expect(put.statusCode, put.body).toBe(200);

    const [create, update] = await historyOf('collection', id);
    expect(create.action).toBe('create');
    expect(create.changes.arthropods).toEqual([null, [tarsalis(SEX_ID.fMixed, 41)]]);
    expect(create.changes.lures).toEqual([null, [1]]);
    expect(create.changes.location[1]).toMatchObject({ longitude: -121.49, latitude: 38.58 });
    expect(update.changes).toEqual({
      arthropods: [
        [tarsalis(SEX_ID.fMixed, 41)],
        [tarsalis(SEX_ID.fMixed, 14), tarsalis(SEX_ID.male, 3)],
      ],
      lures: [[1], [1, 2]],
      num_trap: [1, 2],
    });
  });

  it('keeps a pool’s and a pool test’s writes, and their retirement with the collection', async () => {
    const manager = await file.t.login('demo-manager');
    const collection = await created(
      '/v1/arthropod/collection',
      makeCollection({ arthropods: [tarsalis(SEX_ID.fMixed, 50)] }),
    );
    const pool = await created('/v1/arthropod/pool', {
      collection,
      species: SPECIES_ID.cxTarsalis,
      sex: SEX_ID.fMixed,
      num_count: 50,
    });
    const putPool = await file.http.put(`/v1/arthropod/pool/${pool}`, file.token, {
      num_count: 25,
    });
    expect(putPool.statusCode, putPool.body).toBe(200);
    const test = await created('/v1/arthropod/pool/test', {
      pool,
      method: METHOD_ID.rtPcr,
      target: TARGET_ID.wnv,
      status: STATUS_ID.pending,
      test_date: '2026-07-20',
      test_agency: LAB,
    });
    const putTest = await file.http.put(`/v1/arthropod/pool/test/${test}`, file.token, {
      status: STATUS_ID.confirmed,
      value: 28.5,
    });
    expect(putTest.statusCode, putTest.body).toBe(200);
    const del = await file.http.del(`/v1/arthropod/collection/${collection}`, manager);
    expect(del.statusCode, del.body).toBe(200);

    const poolRows = await historyOf('pool', pool);
    expect(poolRows.map((r) => r.action)).toEqual(['create', 'update', 'delete']);
    expect(poolRows[1].changes).toEqual({ num_count: [50, 25] });
    expect(Object.keys(poolRows[2].changes)).toEqual(['deactive_date']);
    const testRows = await historyOf('test', test);
    expect(testRows.map((r) => r.action)).toEqual(['create', 'update', 'delete']);
    expect(testRows[1].changes).toEqual({
      status: [STATUS_ID.pending, STATUS_ID.confirmed],
      value: [null, 28.5],
    });
    const collectionRows = await historyOf('collection', collection);
    expect(collectionRows.map((r) => r.action)).toEqual(['create', 'delete']);
    // The cascade is one write: every row of it has the same moment and author.
    expect(new Set([poolRows[2], testRows[2], collectionRows[1]].map((r) => r.at)).size).toBe(1);
  });

  it('records the pools a collection edit changes (they carry its date), and only those', async () => {
    const collection = await created(
      '/v1/arthropod/collection',
      makeCollection({ arthropods: [tarsalis(SEX_ID.fMixed, 30)] }),
    );
    const pool = await created('/v1/arthropod/pool', {
      collection,
      species: SPECIES_ID.cxTarsalis,
      sex: SEX_ID.fMixed,
      num_count: 30,
    });
    const comments = await file.http.put(`/v1/arthropod/collection/${collection}`, file.token, {
      comments: 'Trap knocked over',
    });
    expect(comments.statusCode, comments.body).toBe(200);
    expect(await historyOf('pool', pool)).toHaveLength(1);
    const moved = await file.http.put(`/v1/arthropod/collection/${collection}`, file.token, {
      collection_date: '2026-07-13',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const [, update] = await historyOf('pool', pool);
    expect(update.changes).toEqual({
      collection_date: ['2026-07-14T00:00:00.000Z', '2026-07-13T00:00:00.000Z'],
    });
  });

  it('deletes a pool on its own, retiring its tests, each with a history row', async () => {
    const manager = await file.t.login('demo-manager');
    const collection = await created(
      '/v1/arthropod/collection',
      makeCollection({ arthropods: [tarsalis(SEX_ID.fMixed, 10)] }),
    );
    const pool = await created('/v1/arthropod/pool', {
      collection,
      species: SPECIES_ID.cxTarsalis,
      sex: SEX_ID.fMixed,
      num_count: 10,
    });
    const test = await created('/v1/arthropod/pool/test', {
      pool,
      method: METHOD_ID.rtPcr,
      target: TARGET_ID.wnv,
      status: STATUS_ID.negative,
      test_date: '2026-07-20',
      test_agency: LAB,
    });
    expect((await file.http.del(`/v1/arthropod/pool/${pool}`, manager)).statusCode).toBe(200);
    // A retried delete changes nothing and adds no row.
    expect((await file.http.del(`/v1/arthropod/pool/${pool}`, manager)).statusCode).toBe(200);
    expect((await historyOf('pool', pool)).map((r) => r.action)).toEqual(['create', 'delete']);
    expect((await historyOf('test', test)).map((r) => r.action)).toEqual(['create', 'delete']);
  });

  it('writes one row for an idempotent create sent twice (the replay runs nothing)', async () => {
    const before = await historyRowCount();
    const body = makeSite();
    const send = () =>
      file.t.app.inject({
        method: 'POST',
        url: '/v1/site',
        headers: { ...file.t.auth(file.token), 'idempotency-key': 'history-replay-1' },
        payload: body,
      });
    const first = await send();
    const second = await send();
    expect(first.statusCode, first.body).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(await historyRowCount()).toBe(before + 1);
  });

  it('leaves no history row for a refused write (a rule broken mid-transaction, a taken code)', async () => {
    const collection = await created(
      '/v1/arthropod/collection',
      makeCollection({ arthropods: [tarsalis(SEX_ID.fMixed, 20)] }),
    );
    await created('/v1/arthropod/pool', {
      collection,
      species: SPECIES_ID.cxTarsalis,
      sex: SEX_ID.fMixed,
      num_count: 20,
    });
    const before = await historyRowCount();
    // The new counts are written before the pools are checked against them: the 422 rolls back
    // the counts and the history together.
    const res = await file.http.put(`/v1/arthropod/collection/${collection}`, file.token, {
      arthropods: [tarsalis(SEX_ID.fMixed, 5)],
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(errorOf(res).code).toBe('pool_count_exceeds_abundance');
    const a = makeSite();
    await created('/v1/site', a);
    const b = await created('/v1/site', makeSite());
    const taken = await file.http.put(`/v1/site/${b}`, file.token, { code: a.code });
    expect(taken.statusCode, taken.body).toBe(409);
    expect(await historyRowCount()).toBe(before + 2);
    expect(await historyOf('collection', collection)).toHaveLength(1);
  });

  it('rolls a history row back with the transaction it was written in', async () => {
    const before = await historyRowCount();
    const caller = {
      agencyId: 1,
      userId: null,
      role: 'manager' as const,
      tokenKind: 'agency' as const,
      passwordChangeRequired: false,
      tokenId: 0,
    };
    await expect(
      file.t.db.transaction(async (tx) => {
        const { rows } = await tx.query<{ id: number }>(
          `insert into site (agency, code, name, coordinate_precision, lon, lat)
           values (1, '999001', 'Crash test', 1, -121.5, 38.6) returning id`,
        );
        await historyOfCreate(tx, caller, new Date(), 'site', [rows[0].id]);
        throw new Error('crash after the history row');
      }),
    ).rejects.toThrow('crash after the history row');
    expect(await historyRowCount()).toBe(before);
  });

  it('rolls the history row back with a create whose idempotency claim was taken over', async () => {
    // The history row is written before the answer is stored with the claim (create-once.ts):
    // the claim lost, the 409 rolls back the record and its history row together.
    await file.t.db.query(
      `insert into idempotency_key (agency, key, request_hash, method, path, created_at, claim_id)
       values (1, 'history-taken-over', 'h', 'POST', '/v1/arthropod/collection', now(), 'new-owner')`,
    );
    const before = await historyRowCount();
    const req = {
      idempotencyClaim: { agency: 1, key: 'history-taken-over', claimId: 'old', settled: false },
    } as unknown as FastifyRequest;
    const caller = { agencyId: 1, userId: null, role: 'technician' } as never;
    await expect(
      createOnce(file.t.db, req, (db) =>
        createCollection(db, lookupCatalog(), caller, makeCollection() as never, new Date()),
      ),
    ).rejects.toMatchObject({ status: 409, code: 'idempotency_in_flight' });
    expect(await historyRowCount()).toBe(before);
  });

  it('refuses to change or remove a history row', async () => {
    await created('/v1/site', makeSite());
    await expect(file.t.db.query(`update record_history set action = 'update'`)).rejects.toThrow(
      /append-only/,
    );
    await expect(file.t.db.query('delete from record_history')).rejects.toThrow(/append-only/);
  });

  it('names an agency token’s writes as the agency token', async () => {
    const token = await file.t.login('demo-manager');
    const issued = await file.t.app.inject({
      method: 'POST',
      url: '/v1/agency/token',
      headers: file.t.auth(token),
      payload: {},
    });
    expect(issued.statusCode, issued.body).toBe(201);
    const agencyToken = (issued.json() as { token: string }).token;
    const id = await created('/v1/site', makeSite(), agencyToken);
    const [row] = await historyOf('site', id);
    expect(row.user).toEqual({ id: null, full_name: 'Agency token' });
  });
});

describe('GET /v1/history: who may read it', () => {
  it('answers 404 for another agency’s record and for no record, as the record’s GET does', async () => {
    const id = await created('/v1/site', makeSite());
    const neighbor = await file.t.login('neighbor-manager');
    for (const [url, token] of [
      [`/v1/history?entity=site&id=${id}`, neighbor],
      ['/v1/history?entity=collection&id=999999', file.token],
    ] as const) {
      const res = await file.http.get(url, token);
      expect(res.statusCode, url).toBe(404);
      expect(errorOf(res).code).toBe('not_found');
    }
  });

  it('lists the agency’s changes since a date to managers, paged, and refuses technicians', async () => {
    const refused = await file.http.get('/v1/history?since=2020-01-01', file.token);
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).code).toBe('forbidden');

    const manager = await file.t.login('demo-manager');
    await created('/v1/site', makeSite());
    const all = await file.http.get('/v1/history?since=2020-01-01&pageSize=1000', manager);
    expect(all.statusCode, all.body).toBe(200);
    const body = historyList.parse(all.json());
    expect(body.count).toBe(await historyRowCount());
    const ids = body.rows.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    const page2 = historyList.parse(
      (await file.http.get('/v1/history?since=2020-01-01&pageSize=2&page=2', manager)).json(),
    );
    expect(page2.rows.map((r) => r.id)).toEqual(ids.slice(2, 4));
    expect(page2.count).toBe(body.count);
    const future = historyList.parse(
      (await file.http.get('/v1/history?since=2100-01-01', manager)).json(),
    );
    expect(future).toEqual({ rows: [], count: 0 });
    // Another agency's manager sees none of this agency's changes.
    const neighbor = await file.t.login('neighbor-manager');
    const theirs = historyList.parse(
      (await file.http.get('/v1/history?since=2020-01-01', neighbor)).json(),
    );
    expect(theirs.rows.every((r) => !ids.includes(r.id))).toBe(true);
  });

  it.each([
    ['/v1/history', 'entity'],
    ['/v1/history?entity=trap&id=1', 'entity'],
    ['/v1/history?entity=site', 'id'],
    ['/v1/history?entity=site&id=abc', 'id'],
    ['/v1/history?entity=site&id=99999999999', 'id'],
    ['/v1/history?entity=site&id=1&since=2026-01-01', 'since'],
    ['/v1/history?since=yesterday', 'since'],
    ['/v1/history?since=2026-01-01&pageSize=5000', 'pageSize'],
    ['/v1/history?entity=site&entity=pool&id=1', 'entity'],
  ])('answers %s with a 422 naming %s', async (url, field) => {
    const manager = await file.t.login('demo-manager');
    const res = await file.http.get(url, manager);
    expect(res.statusCode, res.body).toBe(422);
    const error = errorOf(res);
    expect(error.code).toBe('validation_failed');
    expect(error.fields?.map((f) => f.path)).toContain(field);
  });

  it('answers a malformed query string with 400', async () => {
    const res = await file.http.get('/v1/history?entity=site&id=%E0%A4%A', file.token);
    expect(res.statusCode, res.body).toBe(400);
    expect(errorOf(res).code).toBe('bad_request');
  });
});
