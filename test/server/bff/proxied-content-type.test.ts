import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBff, type RunningBff } from '../../../src/server/bff/app';
import type { Database } from '../../../src/server/db/database';
import { openTestDatabase } from '../helpers/test-database';
import { appRequest } from './helpers/bff-stack';
import { cookieFrom } from './helpers/http';

/**
 * The BFF serves proxied answers from the app's own origin. An upstream it does not control
 * (a hosted service, or one that was compromised) that answers `text/html` must not get a page
 * with script into that origin: every proxied answer goes out as JSON, whatever the upstream
 * said. The fake upstream here stands for such a service at the network edge.
 */

const PAGE = '<!doctype html><script>fetch("/api/session",{method:"DELETE"})</script>';

let db: Database;
let upstream: FastifyInstance;
let bff: RunningBff;
let api: ReturnType<typeof appRequest>;
let cookie: string;

beforeAll(async () => {
  db = await openTestDatabase();
  upstream = Fastify({ logger: false });
  upstream.post('/login', async () => ({
    token: 'html-upstream-token',
    agencies: [{ id: 9, name: 'Html District' }],
  }));
  upstream.get('/v1/site', async (_req, reply) => reply.type('text/html').send(PAGE));
  upstream.get('/v1/site/:id', async (_req, reply) =>
    reply.status(404).type('text/html; charset=utf-8').send(PAGE),
  );
  upstream.post('/v1/site', async (_req, reply) =>
    reply.status(422).type('application/xhtml+xml').send(PAGE),
  );
  upstream.get('/v1/arthropod/collection', async (_req, reply) =>
    reply.type('application/json; charset=iso-8859-1').send('{"rows":[]}'),
  );
  await upstream.listen({ port: 0, host: '127.0.0.1' });
  const upstreamUrl = `http://127.0.0.1:${(upstream.server.address() as AddressInfo).port}`;
  bff = await startBff({ db, upstreamUrl, staticRoot: null });
  api = appRequest(bff.url);
  const res = await api('/api/session', {
    method: 'POST',
    body: { username: 'someone', password: 'anything-at-all' },
  });
  cookie = cookieFrom(res) ?? '';
  if (!cookie) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
});
afterAll(async () => {
  await bff?.close();
  await upstream?.close();
  await db?.close();
});

describe('an upstream that answers text/html', () => {
  it.each([
    ['a list answered 200 text/html', 'GET', '/api/v1/site', 200],
    ['a record answered 404 text/html', 'GET', '/api/v1/site/1', 404],
    ['a create answered 422 application/xhtml+xml', 'POST', '/api/v1/site', 422],
    ['a list in another charset', 'GET', '/api/v1/arthropod/collection', 200],
  ] as const)('%s reaches the browser as JSON', async (_name, method, path, status) => {
    const res = await api(path, {
      method,
      cookie,
      ...(method === 'POST' ? { body: { name: 'x' } } : {}),
    });
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
