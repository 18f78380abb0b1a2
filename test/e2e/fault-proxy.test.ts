import { createServer, request as httpRequest, Agent, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from './harness/fault-proxy';
import { countRequests, type RequestCounter } from './harness/request-counter';

// The fault proxy is the harness part the "response lost after commit" scenario relies on, so
// it is checked on its own against a real HTTP server that records what it committed.
describe('fault-injecting TCP proxy', () => {
  let server: Server;
  let proxy: FaultProxy;
  let counter: RequestCounter;
  const committed: string[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        if (req.method === 'POST') committed.push(body);
        res.writeHead(req.method === 'POST' ? 201 : 200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ method: req.method, url: req.url, body }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    counter = countRequests(server);
    proxy = await startFaultProxy(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });

  afterAll(async () => {
    agent.destroy();
    await proxy.close();
    await new Promise((r) => server.close(r));
  });

  const send = (method: string, path: string, body?: string, chunked = false) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${proxy.url}${path}`, {
        method,
        agent,
        headers: chunked
          ? { 'Transfer-Encoding': 'chunked' }
          : body
            ? { 'Content-Length': Buffer.byteLength(body) }
            : {},
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      if (body && chunked) {
        req.write(body.slice(0, 3));
        req.write(body.slice(3));
      } else if (body) req.write(body);
      req.end();
    });

  it('passes requests and answers through unchanged, over one kept-alive connection', async () => {
    const a = await send('GET', '/v1/site?page=1');
    const b = await send('POST', '/v1/other', '{"a":1}', true);
    const c = await send('POST', '/v1/other', '{"b":2}');
    expect(a).toEqual({
      status: 200,
      body: JSON.stringify({ method: 'GET', url: '/v1/site?page=1', body: '' }),
    });
    expect(JSON.parse(b.body).body).toBe('{"a":1}');
    expect(c.status).toBe(201);
    expect(proxy.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /v1/site',
      'POST /v1/other',
      'POST /v1/other',
    ]);
  });

  it('loses the answer of the armed request after the server committed it, and only that one', async () => {
    const before = committed.length;
    const dropped = proxy.dropResponseOfNext({ method: 'POST', path: '/v1/site' });
    await expect(send('POST', '/v1/other', '{"n":0}')).resolves.toMatchObject({ status: 201 });
    await expect(send('POST', '/v1/site', '{"code":"104233"}')).rejects.toThrow();
    await expect(dropped).resolves.toMatchObject({ method: 'POST', path: '/v1/site' });
    // The server did apply it: the client just never heard back.
    expect(committed.slice(before)).toEqual(['{"n":0}', '{"code":"104233"}']);

    const retry = await send('POST', '/v1/site', '{"code":"104233"}');
    expect(retry.status).toBe(201);
    expect(counter.posts('/v1/site')).toBe(2);
    expect(counter.postsByPath()).toEqual({ '/v1/other': 3, '/v1/site': 2 });
  });
});
