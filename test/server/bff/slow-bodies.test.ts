import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRecords } from '../../../src/server/records/app';
import { buildBff } from '../../../src/server/bff/app';
import { DEFAULT_SERVER_TIMEOUTS } from '../../../src/server/http/server-timeouts';
import { TEST_PASSWORD } from '../helpers/records-app';
import { startBffStack, type BffStack } from './helpers/bff-stack';
import { jsonPostHead, slowClient } from './helpers/slow-client';

/**
 * D3: a client that sends half a request and stops (or trickles it a byte at a time) must not
 * hold a socket forever. Both servers run with short timeouts here; the defaults are checked
 * separately. A client at the network edge (a raw socket) plays the slow client.
 */

const SHORT = { headersMs: 500, requestMs: 2_000, idleMs: 20_000, keepAliveMs: 500 };
// Far longer than the timeouts above, far shorter than the test's own limit.
const GIVE_UP_MS = 8_000;

let stack: BffStack;

beforeAll(async () => {
  stack = await startBffStack({ records: { timeouts: SHORT }, bff: { timeouts: SHORT } });
});
afterAll(async () => {
  await stack?.close();
});

const login = JSON.stringify({ username: 'demo-tech', password: TEST_PASSWORD });

type Target = { name: string; url: string; path: string; headers: Record<string, string> };

const servers = (): Target[] => [
  { name: 'records service', url: stack.recordsUrl, path: '/login', headers: {} },
  {
    name: 'BFF',
    url: stack.url,
    path: '/api/session',
    headers: { 'x-csrf': '1', origin: stack.url },
  },
];

describe.each(['records service', 'BFF'])('the %s', (name) => {
  const server = () => servers().find((s) => s.name === name)!;

  it('closes a connection whose body stops half-way', async () => {
    const s = server();
    const head = jsonPostHead(s.url, s.path, login.length, s.headers);
    const res = await slowClient(s.url, [head + login.slice(0, 10)], { giveUpMs: GIVE_UP_MS });
    expect(res.closedByServer, `still open after ${res.afterMs} ms`).toBe(true);
    expect(res.afterMs).toBeLessThan(SHORT.idleMs);
  });

  it('closes a connection whose body trickles in a byte at a time', async () => {
    const s = server();
    const head = jsonPostHead(s.url, s.path, 10_000, s.headers);
    const res = await slowClient(s.url, [head + '{"username":"'], {
      giveUpMs: GIVE_UP_MS,
      trickleMs: 50,
      trickle: 'a',
    });
    expect(res.closedByServer, `still open after ${res.afterMs} ms`).toBe(true);
  });

  it('closes a connection whose headers never end', async () => {
    const s = server();
    const head = jsonPostHead(s.url, s.path, login.length, s.headers);
    const res = await slowClient(s.url, [head.slice(0, 40)], { giveUpMs: GIVE_UP_MS });
    expect(res.closedByServer, `still open after ${res.afterMs} ms`).toBe(true);
  });

  it('still answers a request whose body arrives slowly but within the limit', async () => {
    const s = server();
    const head = jsonPostHead(s.url, s.path, login.length, s.headers);
    const third = Math.ceil(login.length / 3);
    const res = await slowClient(
      s.url,
      [head, login.slice(0, third), login.slice(third, 2 * third), login.slice(2 * third)],
      { gapMs: 150, giveUpMs: GIVE_UP_MS },
    );
    expect(res.received).toMatch(/^HTTP\/1\.1 200 /);
    expect(res.received).toMatch(/"agenc(y|ies)"/);
  });
});

it('both servers have request, header, idle and keep-alive timeouts by default', async () => {
  const built = [
    await buildRecords({ db: stack.records.db }),
    await buildBff({ db: stack.records.db, upstreamUrl: stack.recordsUrl }),
  ];
  try {
    for (const app of built) {
      expect(app.server.requestTimeout).toBe(DEFAULT_SERVER_TIMEOUTS.requestMs);
      expect(app.server.headersTimeout).toBe(DEFAULT_SERVER_TIMEOUTS.headersMs);
      expect(app.server.keepAliveTimeout).toBe(DEFAULT_SERVER_TIMEOUTS.keepAliveMs);
      expect(app.server.timeout).toBe(DEFAULT_SERVER_TIMEOUTS.idleMs);
      expect(DEFAULT_SERVER_TIMEOUTS.requestMs).toBeGreaterThan(0);
    }
  } finally {
    for (const app of built) await app.close();
  }
});
