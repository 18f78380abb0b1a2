import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestRecords, type TestRecords } from '../helpers/records-app';
import { purgeExpired } from '../../../src/server/records/housekeeping';
import { makeSite } from './factories/make-site';

let t: TestRecords;
let clock = Date.parse('2026-07-14T15:00:00.000Z');
beforeAll(async () => {
  t = await buildTestRecords({ now: () => new Date(clock) });
});
afterAll(() => t.close());

it('forgets login tokens a week after they expired and answered idempotency keys after a day', async () => {
  const old = await t.login('demo-tech');
  const key = randomUUID();
  const created = await t.app.inject({
    method: 'POST',
    url: '/v1/site',
    headers: { ...t.auth(old), 'idempotency-key': key },
    payload: makeSite(),
  });
  expect(created.statusCode).toBe(201);

  clock += 2 * 86_400_000;
  const recent = await t.login('demo-tech');
  expect(await purgeExpired(t.db, new Date(clock))).toEqual({ tokens: 0, keys: 1 });
  // Within the week: still told the token expired.
  expect(
    (await t.app.inject({ method: 'GET', url: '/v1/me', headers: t.auth(old) })).json().error.code,
  ).toBe('token_expired');

  clock += 7 * 86_400_000;
  const purged = await purgeExpired(t.db, new Date(clock));
  expect(purged.tokens).toBe(1);
  expect(
    (await t.app.inject({ method: 'GET', url: '/v1/me', headers: t.auth(old) })).json().error.code,
  ).toBe('unauthenticated');
  // Expired less than a week ago: kept.
  expect(
    (await t.app.inject({ method: 'GET', url: '/v1/me', headers: t.auth(recent) })).json().error
      .code,
  ).toBe('token_expired');
});
