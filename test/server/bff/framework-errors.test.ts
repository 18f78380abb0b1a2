import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '#shared/schemas/error';
import { startBffStack, type BffStack } from './helpers/bff-stack';

/**
 * A path the BFF's router cannot read (a %-escape that does not decode, a parameter over the
 * router's length limit) is answered with the contract's error body, like every refused request,
 * not Fastify's own `{"error":"Bad Request","code":"FST_ERR_BAD_URL",…}`: the app reads
 * `error.message` from every answer it does not expect.
 */

let stack: BffStack;
let cookie: string;
beforeAll(async () => {
  stack = await startBffStack();
  cookie = await stack.signIn();
});
afterAll(async () => {
  await stack?.close();
});

describe('a path the BFF cannot read', () => {
  it('answers 400 bad_request with the error body for a malformed %-escape, signed in or not', async () => {
    for (const path of ['/api/v1/site/%E0', '/api/v1/arthropod/pool/%zz', '/api/session%']) {
      for (const headers of [{ cookie }, {}] as Record<string, string>[]) {
        const res = await fetch(`${stack.url}${path}`, { headers });
        const text = await res.text();
        expect(res.status, `${path}: ${text}`).toBe(400);
        expect(errorBody.safeParse(JSON.parse(text)).success, text).toBe(true);
        // As every API answer: not kept by a cache, not sniffed into another type.
        expect(res.headers.get('cache-control'), path).toContain('no-store');
        expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      }
    }
  });

  it('answers with the error body for a path parameter longer than any id', async () => {
    const res = await fetch(`${stack.url}/api/v1/site/${'9'.repeat(150)}`, { headers: { cookie } });
    const text = await res.text();
    expect([400, 404]).toContain(res.status);
    expect(errorBody.safeParse(JSON.parse(text)).success, text).toBe(true);
  });
});
