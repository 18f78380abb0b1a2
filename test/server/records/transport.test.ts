import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestRecords, TEST_PASSWORD, type TestRecords } from '../helpers/records-app';

let t: TestRecords;
beforeAll(async () => {
  t = await buildTestRecords({ trustProxy: ['192.0.2.1'] });
});
afterAll(() => t.close());

const signIn = (remoteAddress: string, proto?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/login',
    remoteAddress,
    headers: proto ? { 'x-forwarded-proto': proto } : {},
    payload: { username: 'demo-manager', password: TEST_PASSWORD },
  });

it('believes X-Forwarded-Proto: https from a trusted proxy', async () => {
  expect((await signIn('192.0.2.1', 'https')).statusCode).toBe(200);
  expect((await signIn('::ffff:192.0.2.1', 'https')).statusCode).toBe(200);
});

it('refuses a trusted proxy that forwarded plain HTTP', async () => {
  const res = await signIn('192.0.2.1', 'http');
  expect(res.statusCode).toBe(403);
  expect(res.json().error.code).toBe('https_required');
});

it('accepts plain HTTP from loopback peers (the BFF beside it)', async () => {
  expect((await signIn('127.0.0.1')).statusCode).toBe(200);
  expect((await signIn('::1')).statusCode).toBe(200);
});
