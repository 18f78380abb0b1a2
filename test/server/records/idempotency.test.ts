import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecords, type TestRecords } from '../helpers/records-app';
import { makeSite } from './factories/make-site';

let t: TestRecords;
let tech: string;
let neighbor: string;
let clock = Date.parse('2026-07-14T15:00:00.000Z');

beforeAll(async () => {
  t = await buildTestRecords({ now: () => new Date(clock), tokenTtlSeconds: 10 * 86_400 });
  tech = await t.login('demo-tech');
  neighbor = await t.login('neighbor-manager');
});
afterAll(() => t.close());

const create = (token: string, key: string, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/site',
    headers: { ...t.auth(token), 'idempotency-key': key },
    payload: payload as object,
  });
const sitesWithCode = async (code: unknown) =>
  (await t.db.query('select id from site where code = $1', [code])).rows.length;

describe('Idempotency-Key on POST', () => {
  it('replays the stored status and body for the same key and body, creating nothing more', async () => {
    const key = randomUUID();
    const body = makeSite();
    const first = await create(tech, key, body);
    expect(first.statusCode).toBe(201);
    const again = await create(tech, key, body);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    // Same body with keys in another order is the same request.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    expect((await create(tech, key, reordered)).json().id).toBe(first.json().id);
    expect(await sitesWithCode(body.code)).toBe(1);
  });

  it('answers 422 idempotency_key_reused for the same key with a different body', async () => {
    const key = randomUUID();
    const body = makeSite();
    expect((await create(tech, key, body)).statusCode).toBe(201);
    const res = await create(tech, key, { ...body, name: 'Changed' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('idempotency_key_reused');
    // A body the schema refuses is still another body: the key's use is judged first.
    const invalid = await create(tech, key, { ...body, code: 'not six digits' });
    expect(invalid.json().error.code).toBe('idempotency_key_reused');
  });

  it('creates one record from two concurrent requests with one key', async () => {
    const key = randomUUID();
    const body = makeSite();
    const first = create(tech, key, body);
    const second = create(tech, key, body);
    const results = await Promise.all([first, second]);
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses[0]).toBe(201);
    expect([201, 409]).toContain(statuses[1]);
    if (statuses[1] === 409)
      expect(results.find((r) => r.statusCode === 409)!.json().error.code).toBe(
        'idempotency_in_flight',
      );
    expect(await sitesWithCode(body.code)).toBe(1);
  });

  it('answers 409 idempotency_in_flight for an identical request while the claim has no answer', async () => {
    const key = randomUUID();
    const body = makeSite();
    const first = await create(tech, key, body);
    expect(first.statusCode).toBe(201);
    // Make the stored claim look unanswered, as while the first request runs.
    await t.db.query('update idempotency_key set status = null, response = null where key = $1', [
      key,
    ]);
    const res = await create(tech, key, body);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('idempotency_in_flight');
    expect(res.headers['retry-after']).toBe('1');
  });

  it('releases the key when the request fails, so a corrected retry with the same key runs', async () => {
    const key = randomUUID();
    const body = makeSite();
    const bad = await create(tech, key, {
      ...body,
      shape: { type: 'Point', coordinates: [38.58, -121.49] },
    });
    expect(bad.statusCode).toBe(422);
    const fixed = await create(tech, key, body);
    expect(fixed.statusCode).toBe(201);
    expect(await sitesWithCode(body.code)).toBe(1);
  });

  it('keeps keys per agency', async () => {
    const key = randomUUID();
    const body = makeSite();
    expect((await create(tech, key, body)).statusCode).toBe(201);
    const other = await create(neighbor, key, body);
    expect(other.statusCode).toBe(201);
    expect(other.json().agency).toBe(2);
  });

  it('forgets a key after 24 hours', async () => {
    const key = randomUUID();
    const body = makeSite();
    expect((await create(tech, key, body)).statusCode).toBe(201);
    clock += 24 * 3600_000 + 1000;
    const res = await create(tech, key, body);
    // The route runs again: the code is now taken by the first create.
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('site_code_taken');
  });

  it('answers 400 for a malformed key', async () => {
    const res = await create(tech, 'has spaces in it', makeSite());
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('bad_request');
  });
});

describe('with idempotency off (imitating the hosted service)', () => {
  it('runs every POST, so a repeated create meets the code rule', async () => {
    const plain = await buildTestRecords({ idempotency: false });
    try {
      const token = await plain.login('demo-tech');
      const key = randomUUID();
      const body = makeSite();
      const send = () =>
        plain.app.inject({
          method: 'POST',
          url: '/v1/site',
          headers: { ...plain.auth(token), 'idempotency-key': key },
          payload: body,
        });
      expect((await send()).statusCode).toBe(201);
      const second = await send();
      expect(second.statusCode).toBe(409);
      expect(second.json().error.code).toBe('site_code_taken');
    } finally {
      await plain.close();
    }
  });
});
