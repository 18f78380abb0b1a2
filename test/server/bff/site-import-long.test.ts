import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serveHop, startBffStack, type BffStack } from './helpers/bff-stack';
import { forwardingHop } from './helpers/forwarding-hop';

let stack: BffStack;
const IDLE_MS = 2_000;
// One create alone is silent for longer than the idle time: no batching of rows can hide it.
const CREATE_DELAY_MS = 4_500;

beforeAll(async () => {
  stack = await startBffStack({
    // A BFF that drops a socket silent for IDLE_MS (the production default is 120 s), in front of
    // an upstream whose creates each take CREATE_DELAY_MS: the import outlasts the idle time.
    bff: { timeouts: { idleMs: IDLE_MS } },
    hop: (upstream) =>
      serveHop(
        forwardingHop(upstream, {
          // A create, or a batch of them, each slower than the idle time.
          async beforeForward(req) {
            const writes = req.url === '/v1/site' || req.url === '/v1/site/batch';
            if (req.method === 'POST' && writes) await sleep(CREATE_DELAY_MS);
          },
        }),
      ),
  });
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

it('answers an import that takes longer than the idle timeout of a silent socket', async () => {
  const manager = await stack.signIn('demo-manager');
  const rows = Array.from({ length: 8 }, (_, i) => `${340000 + i},Long ${i},38.5,-121.5,1`);
  const started = Date.now();
  const res = await request(`${stack.url}/api/import/sites`, {
    method: 'POST',
    headers: { origin: stack.url, 'x-csrf': '1', cookie: manager, 'content-type': 'text/csv' },
    body: ['code,name,latitude,longitude,coordinate_precision', ...rows].join('\n'),
  });
  const body = (await res.body.json()) as { created: number };
  expect(Date.now() - started).toBeGreaterThan(IDLE_MS);
  expect(res.statusCode).toBe(200);
  expect(body.created).toBe(8);
});
