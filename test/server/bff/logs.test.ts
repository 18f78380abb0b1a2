import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../helpers/records-app';
import { startBffStack, type BffStack } from './helpers/bff-stack';
import { http } from './helpers/http';
import { makeCollection } from './helpers/record-bodies';

const lines: string[] = [];
const stream = new Writable({
  write(chunk: Buffer, _enc, done) {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  },
});

let stack: BffStack;
beforeAll(async () => {
  stack = await startBffStack({ bff: { logger: { level: 'trace', stream } } });
});
afterAll(async () => {
  await stack?.close();
});

describe('BFF logs', () => {
  it('never contain a password, an upstream token or a session cookie', async () => {
    const cookie = await stack.signIn('demo-tech');
    const sessionId = cookie.split('=')[1];
    await stack.api('/api/session', {
      method: 'POST',
      body: { username: 'demo-tech', password: 'wrong-Secret-123' },
    });
    await stack.api('/api/session', {
      cookie,
      headers: { authorization: 'Bearer browser-secret-abc' },
    });
    await stack.api('/api/v1/arthropod/collection', {
      method: 'POST',
      cookie,
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: makeCollection(),
    });
    await stack.api('/api/v1/arthropod/collection', { method: 'POST', cookie, body: { bad: 1 } });
    await stack.api('/api/lookups', { cookie });
    const lonely = await stack.startSibling({
      upstreamUrl: 'http://127.0.0.1:9',
      logger: { level: 'trace', stream },
    });
    await http(`${lonely.url}/api/v1/arthropod/collection`, { headers: { 'x-csrf': '1', cookie } });
    const { rows } = await stack.records.db.query<{ upstream_token: string }>(
      'select upstream_token from bff_session',
    );
    const tokens = rows.map((r) => r.upstream_token);
    expect(tokens.length).toBeGreaterThan(0);
    await stack.api('/api/session', { method: 'DELETE', cookie });

    expect(lines.length).toBeGreaterThan(10);
    expect(lines.some((l) => l.includes('/api/v1/arthropod/collection'))).toBe(true);
    expect(lines.some((l) => l.includes('upstream_unavailable'))).toBe(true);
    const all = lines.join('\n');
    for (const secret of [
      TEST_PASSWORD,
      'wrong-Secret-123',
      'browser-secret-abc',
      sessionId,
      ...tokens,
    ]) {
      expect(all).not.toContain(secret);
    }
  });
});
