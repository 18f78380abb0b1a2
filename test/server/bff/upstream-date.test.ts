import { createServer } from 'node:http';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHop, startBffStack, type BffStack } from './helpers/bff-stack';

/**
 * The tablet's pull decides how far back to look for writes that committed late from the list
 * answer's `Date` (client/sync/pull-mark.ts), which must be the clock that stamped the records'
 * `updated`: the upstream's, not the BFF's. A hosted upstream whose clock runs behind the BFF's
 * would otherwise make the look-back vanish. The hop stands for such an upstream host: it passes
 * the real records service's answers on with its clock twenty minutes behind.
 */
const BEHIND_MS = 20 * 60_000;
let stack: BffStack;
let cookie: string;

beforeAll(async () => {
  stack = await startBffStack({
    hop: (url) =>
      serveHop(
        createServer((req, res) => {
          const chunks: Buffer[] = [];
          req.on('data', (c: Buffer) => chunks.push(c));
          req.on('end', () => {
            const headers = { ...req.headers };
            delete headers.host;
            delete headers.connection;
            // This hop passes bodies on as text: it asks for uncompressed answers.
            delete headers['accept-encoding'];
            void request(`${url}${req.url}`, {
              method: req.method as 'GET',
              headers: headers as Record<string, string>,
              body: chunks.length ? Buffer.concat(chunks) : undefined,
            }).then(async (up) => {
              const text = await up.body.text();
              res.writeHead(up.statusCode, {
                'content-type': String(up.headers['content-type'] ?? 'application/json'),
                date: new Date(Date.now() - BEHIND_MS).toUTCString(),
              });
              res.end(text);
            });
          });
        }),
      ),
  });
  cookie = await stack.signIn();
});
afterAll(async () => {
  await stack?.close();
});

describe('a list read through the BFF', () => {
  it('carries the upstream’s Date, the clock that stamped its records', async () => {
    const res = await stack.api('/api/v1/site?pageSize=5', { cookie });
    expect(res.status).toBe(200);
    const date = Date.parse(String(res.headers.date));
    expect(Math.abs(date - (Date.now() - BEHIND_MS))).toBeLessThan(60_000);
  });
});
