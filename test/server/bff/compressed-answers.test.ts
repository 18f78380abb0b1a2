import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { brotliDecompressSync, createBrotliDecompress, gunzipSync, gzipSync } from 'node:zlib';
import { request as undiciRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { growSites } from '../../bench/grow-sites';
import { TEST_PASSWORD } from '../helpers/records-app';
import { serveHop, startBffStack, type BffStack } from './helpers/bff-stack';

/**
 * Compressed answers (issue 38 item 2), over real HTTP: the BFF compresses /api answers by the
 * browser's Accept-Encoding, the records service compresses what the BFF reads from it, and the
 * answers that carry a secret next to the requester's own text never are.
 */

const SITES = 300;
/** An agency name long enough to put the sign-in answers well above the 1 KiB threshold. */
const LONG_AGENCY_NAME = `Demo Vector Control District ${'of the Long Valley '.repeat(80)}`.trim();

let stack: BffStack;
let hold: PageHold;
let cookie: string;

/** Raw bytes of an /api answer as they came over the wire (undici's request never decodes). */
async function raw(path: string, acceptEncoding?: string, base = stack.url) {
  const res = await undiciRequest(`${base}${path}`, {
    headers: {
      cookie,
      'x-csrf': '1',
      origin: base,
      ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
    },
  });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers, body };
}

function decode(body: Buffer, encoding: unknown): string {
  if (encoding === 'br') return brotliDecompressSync(body).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(body).toString('utf8');
  return body.toString('utf8');
}

/** Bytes the records service has written to its sockets so far (what the BFF hop carried). */
function recordsBytesWritten(sockets: Set<Socket>): number {
  let n = 0;
  for (const s of sockets) n += s.bytesWritten;
  return n;
}
const recordsSockets = new Set<Socket>();

beforeAll(async () => {
  stack = await startBffStack({
    hop: async (upstreamUrl) => {
      hold = pageHold(upstreamUrl);
      return serveHop(hold.server);
    },
    // Small pages, so an export of a few hundred sites has several to hold back.
    bff: { exportMinPageSize: 1 },
  });
  stack.records.app.server.on('connection', (s: Socket) => recordsSockets.add(s));
  await growSites(stack.records.db, SITES);
  await stack.records.db.query('update agency set name = $1 where id = 1', [LONG_AGENCY_NAME]);
  cookie = await stack.signIn('demo-manager');
}, 60_000);

afterAll(async () => {
  hold?.release();
  await stack?.close();
});

describe('BFF → tablet', () => {
  const list = '/api/v1/site?pageSize=1000&sort=id';

  it('compresses a list above 1 KiB with br or gzip, as the request accepts, to the same JSON', async () => {
    const plain = await raw(list);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const expected = JSON.parse(plain.body.toString('utf8')) as { count: number };
    expect(expected.count).toBeGreaterThanOrEqual(SITES);

    for (const [accept, encoding] of [
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['gzip, deflate, br', 'br'],
      ['br;q=0.5, gzip;q=1', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
    ] as const) {
      const res = await raw(list, accept);
      expect(res.status, accept).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe(encoding);
      expect(String(res.headers.vary), accept).toMatch(/accept-encoding/i);
      expect(JSON.parse(decode(res.body, encoding)), accept).toEqual(expected);
      // What a weak signal has to carry: a fraction of the JSON.
      expect(res.body.length, accept).toBeLessThan(plain.body.length / 4);
    }
  });

  it('sends identity when nothing it offers is accepted', async () => {
    const res = await raw(list, 'identity');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString('utf8'))).toMatchObject({ count: expect.any(Number) });
  });

  it('compresses lookups and CSV exports too', async () => {
    const lookups = await raw('/api/lookups', 'br');
    expect(lookups.status).toBe(200);
    expect(lookups.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decode(lookups.body, 'br'))).toBeTypeOf('object');
    const csv = await raw('/api/export/sites.csv', 'gzip');
    expect(csv.headers['content-encoding']).toBe('gzip');
    expect(decode(csv.body, 'gzip').split('\r\n').length).toBeGreaterThan(SITES);
  });

  it('leaves an answer under 1 KiB as it is', async () => {
    const res = await raw('/api/export/summary', 'br, gzip');
    expect(res.status).toBe(200);
    expect(res.body.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString('utf8'))).toMatchObject({ sites: expect.any(Number) });
  });

  it('never compresses the session routes, even above 1 KiB', async () => {
    const signIn = await undiciRequest(`${stack.url}/api/session`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-csrf': '1',
        origin: stack.url,
        'accept-encoding': 'br, gzip',
      },
      body: JSON.stringify({ username: 'demo-tech', password: TEST_PASSWORD }),
    });
    const signInBody = await signIn.body.text();
    expect(signIn.statusCode).toBe(200);
    expect(signIn.headers['set-cookie']).toBeDefined();
    expect(signInBody.length).toBeGreaterThan(1024);
    expect(signIn.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(signInBody)).toMatchObject({ agency: { name: LONG_AGENCY_NAME } });

    const who = await raw('/api/session', 'br, gzip');
    expect(who.status).toBe(200);
    expect(who.body.length).toBeGreaterThan(1024);
    expect(who.headers['content-encoding']).toBeUndefined();
  });

  it('streams an export compressed: the first pages arrive while a later one is not yet read', async () => {
    hold.plan(3);
    const res = await undiciRequest(`${stack.url}/api/export/sites.csv?page_size=50`, {
      headers: { cookie, 'x-csrf': '1', origin: stack.url, 'accept-encoding': 'br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    // Decode as the bytes come, as a browser does.
    const decoder = createBrotliDecompress();
    let text = '';
    decoder.on('data', (c: Buffer) => (text += c.toString('utf8')));
    const chunks = res.body[Symbol.asyncIterator]();
    const rowsSoFar = () => text.split('\r\n').length - 2;
    while (rowsSoFar() < 100) {
      const next = await chunks.next();
      expect(next.done, 'the body ended before page 3 was answered').toBeFalsy();
      await new Promise<void>((r) => decoder.write(next.value as Buffer, () => r()));
      await new Promise((r) => setImmediate(r));
    }
    await hold.held;
    // Page 3 is held upstream: the tablet has pages 1 and 2, and nothing after them.
    expect(rowsSoFar()).toBe(100);
    expect(res.trailers['x-export-rows']).toBeUndefined();
    hold.release();
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
      decoder.write(next.value as Buffer);
    }
    await new Promise<void>((r) => decoder.end(() => r()));
    await new Promise((r) => setImmediate(r));
    const lines = text.split('\r\n').filter(Boolean);
    expect(lines.length - 1).toBeGreaterThanOrEqual(SITES);
    expect(res.trailers['x-export-rows']).toBe(String(lines.length - 1));
  });
});

describe('a compressed export that fails mid-way', () => {
  it('still fails the download: no trailer, no compressed stream that ends like a whole file', async () => {
    hold.plan(3, 'fail');
    const res = await undiciRequest(`${stack.url}/api/export/sites.csv?page_size=50`, {
      headers: { cookie, 'x-csrf': '1', origin: stack.url, 'accept-encoding': 'gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    const received: Buffer[] = [];
    const read = (async () => {
      for await (const chunk of res.body) received.push(chunk as Buffer);
    })();
    await expect(read).rejects.toThrow();
    expect(res.trailers['x-export-rows']).toBeUndefined();
    // What did arrive is not a complete gzip stream, so nothing can take it for the whole file.
    expect(() => gunzipSync(Buffer.concat(received))).toThrow();
    hold.plan(0);
  });
});

describe('records service → BFF', () => {
  it('the BFF asks for compressed reads, and the hop carries a fraction of the JSON', async () => {
    const before = recordsBytesWritten(recordsSockets);
    const seenBefore = stack.proxy.seen.length;
    const res = await raw('/api/v1/site?pageSize=1000&sort=id');
    const carried = recordsBytesWritten(recordsSockets) - before;
    expect(res.status).toBe(200);
    const json = res.body.toString('utf8');
    expect(JSON.parse(json)).toMatchObject({ count: expect.any(Number) });
    const read = stack.proxy.seen.slice(seenBefore).find((r) => r.path === '/v1/site');
    expect(read?.head).toMatch(/accept-encoding: br, gzip/i);
    expect(carried).toBeGreaterThan(0);
    expect(carried).toBeLessThan(json.length / 4);
  });

  it('never compresses a secret-issuing answer (POST /login), even when asked', async () => {
    const res = await undiciRequest(`${stack.recordsUrl}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-encoding': 'br, gzip' },
      body: JSON.stringify({ username: 'demo-manager', password: TEST_PASSWORD }),
    });
    const body = await res.body.text();
    expect(res.statusCode).toBe(200);
    expect(body.length).toBeGreaterThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(body)).toMatchObject({ token: expect.any(String) });
  });

  it('an answer that does not decode is a lost answer (502), never passed on or taken as short', async () => {
    hold.corruptNext('/v1/site');
    const res = await raw('/api/v1/site?pageSize=1000', 'br');
    expect(res.status).toBe(502);
    expect(JSON.parse(decode(res.body, res.headers['content-encoding']))).toMatchObject({
      error: { code: 'upstream_unavailable' },
    });
  });
});

type PageHold = ReturnType<typeof pageHold>;

/**
 * An HTTP hop between the BFF and the records service that passes answers on as they are
 * (Content-Encoding included), and can hold the n-th page of the sites list or cut the next
 * answer of a path short (a compressed body that ends early, in a well-framed message).
 */
function pageHold(target: string) {
  let pageGets = 0;
  let holdPage: number | null = null;
  let action: 'hold' | 'fail' = 'hold';
  let corrupt: string | null = null;
  let release: () => void = () => undefined;
  let onHeld: () => void = () => undefined;
  const state = {
    held: new Promise<void>((r) => (onHeld = r)),
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const path = req.url?.split('?')[0];
      if (req.method === 'GET' && path === '/v1/site' && req.url?.includes('pageSize=50&')) {
        pageGets += 1;
        if (holdPage === pageGets && action === 'fail') {
          req.socket.destroy();
          return;
        }
        if (holdPage === pageGets) {
          onHeld();
          await new Promise<void>((r) => (release = r));
        }
      }
      const headers = { ...req.headers };
      for (const h of ['host', 'connection', 'content-length', 'keep-alive']) delete headers[h];
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const up = await undiciRequest(`${target}${req.url}`, {
        method: req.method as 'GET',
        headers,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      let body = Buffer.from(await up.body.arrayBuffer());
      const out: Record<string, string> = {};
      for (const h of ['content-type', 'content-encoding', 'vary', 'date']) {
        const v = up.headers[h];
        if (typeof v === 'string') out[h] = v;
      }
      if (corrupt && path === corrupt) {
        corrupt = null;
        // The first half of a compressed body: every byte well-framed, the stream unfinished.
        if (!out['content-encoding']) {
          out['content-encoding'] = 'gzip';
          body = gzipSync(body);
        }
        body = body.subarray(0, Math.floor(body.length / 2));
      }
      res.writeHead(up.statusCode, { ...out, 'content-length': String(body.length) });
      res.end(body);
    })();
  });
  return {
    server,
    get held() {
      return state.held;
    },
    plan(page: number, what: 'hold' | 'fail' = 'hold') {
      holdPage = page;
      action = what;
      pageGets = 0;
    },
    corruptNext(path: string) {
      corrupt = path;
    },
    release: () => release(),
  };
}
