import { request as undiciRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBffStack, type BffStack } from './helpers/bff-stack';

/**
 * Issue 36 N8: exports had no limit: eight at once from one session took 138 s with both cores
 * saturated, and `page_size=1` made one upstream request per row. Now pages are at least 100
 * rows, and a session runs one export at a time (429 with Retry-After beyond); other people's
 * downloads are not held back by it.
 */

let stack: BffStack;
let tech: string;
let manager: string;
beforeAll(async () => {
  stack = await startBffStack();
  tech = await stack.signIn('demo-tech');
  manager = await stack.signIn('demo-manager');
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

const get = (path: string, cookie: string) =>
  stack.api(path, { cookie, headers: { accept: '*/*' } });

describe('page_size', () => {
  it.each(['1', '2', '99'])('refuses page_size=%s (422 naming it)', async (size) => {
    const before = stack.proxy.seen.length;
    const res = await get(`/api/export/sites.csv?page_size=${size}`, tech);
    expect(res.status, res.text).toBe(422);
    expect(res.json()).toMatchObject({
      error: { code: 'validation_failed', fields: [{ path: 'page_size' }] },
    });
    expect(stack.proxy.seen.length).toBe(before);
  });

  it('takes 100 and 1000', async () => {
    for (const size of ['100', '1000']) {
      const res = await get(`/api/export/sites.csv?page_size=${size}`, tech);
      expect(res.status, res.text).toBe(200);
      expect(res.text.split('\r\n')[0]).toMatch(/^site_id,code,name/);
    }
  });
});

describe('one export per session at a time', () => {
  it('answers a second export of the same session 429 while the first runs, then lets it through', async () => {
    // The first export's first upstream page comes back slowly: the download is still running.
    const slow = stack.proxy.arm('GET', '/v1/site', 'delay', 1_500);
    const first = undiciRequest(`${stack.url}/api/export/sites.csv`, {
      headers: { cookie: tech, 'x-csrf': '1', accept: '*/*' },
    });
    await new Promise((r) => setTimeout(r, 300));

    const second = await get('/api/export/collections.csv', tech);
    expect(second.status, second.text).toBe(429);
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
    expect(second.json()).toMatchObject({ error: { code: 'rate_limited' } });

    // Someone else's download is not held back.
    const colleague = await get('/api/export/pools.csv', manager);
    expect(colleague.status, colleague.text).toBe(200);

    await slow;
    const done = await first;
    expect(done.statusCode).toBe(200);
    await done.body.text();

    const after = await get('/api/export/collections.csv', tech);
    expect(after.status, after.text).toBe(200);
  });

  it('gives the slot back when the download is abandoned midway', async () => {
    const slow = stack.proxy.arm('GET', '/v1/site', 'delay', 1_000);
    const controller = new AbortController();
    const first = undiciRequest(`${stack.url}/api/export/sites.csv`, {
      headers: { cookie: tech, 'x-csrf': '1', accept: '*/*' },
      signal: controller.signal,
    }).catch(() => null);
    await new Promise((r) => setTimeout(r, 200));
    controller.abort();
    await first;
    await slow;
    await new Promise((r) => setTimeout(r, 200));
    const next = await get('/api/export/sites.csv', tech);
    expect(next.status, next.text).toBe(200);
  });

  it('takes no slot for an export refused before it starts', async () => {
    const bad = await get('/api/export/sites.csv?page_size=5', tech);
    expect(bad.status).toBe(422);
    const next = await get('/api/export/sites.csv', tech);
    expect(next.status, next.text).toBe(200);
  });
});
