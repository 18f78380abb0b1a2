import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '#shared/schemas/error';
import { startBffStack, type BffStack } from './helpers/bff-stack';

/**
 * Requests node's HTTP parser refuses before any route sees them (request-smuggling shapes,
 * a request target with raw non-ASCII bytes, headers over node's 16 KiB) are answered like every
 * other error: the contract's error body, nosniff, no caching, and the connection closed. Never
 * Fastify's own `{"error":"Bad Request","statusCode":400}` shape.
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

type RawAnswer = { status: number; headers: Record<string, string>; body: string; closed: boolean };

/** Writes bytes exactly as given to `url` (the BFF) and reads until the server closes (or 5 s). */
function raw(bytes: string | Buffer, url = stack.url): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    const chunks: Buffer[] = [];
    let closed = false;
    const timer = setTimeout(() => socket.destroy(), 5_000);
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('end', () => (closed = true));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(statusLine);
      if (!m) return reject(new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`));
      const headers: Record<string, string> = {};
      for (const l of lines) {
        const i = l.indexOf(':');
        headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
      }
      resolve({ status: Number(m[1]), headers, body: rest.join('\r\n\r\n'), closed });
    });
  });
}

function head(lines: string[]): string {
  const host = new URL(stack.url).host;
  return [...lines, `Host: ${host}`, `Origin: ${stack.url}`, 'X-CSRF: 1', `Cookie: ${cookie}`]
    .map((l) => `${l}\r\n`)
    .join('');
}

const body = '{"site":1}';
const post = (headers: string[]) =>
  head([
    'POST /api/v1/arthropod/collection HTTP/1.1',
    'Content-Type: application/json',
    ...headers,
  ]);

const cases: Array<[string, () => string | Buffer, number]> = [
  [
    'two different Content-Length headers',
    () => `${post([`Content-Length: ${body.length}`, 'Content-Length: 3'])}\r\n${body}`,
    400,
  ],
  [
    'Content-Length together with Transfer-Encoding: chunked',
    () => `${post([`Content-Length: ${body.length}`, 'Transfer-Encoding: chunked'])}\r\n0\r\n\r\n`,
    400,
  ],
  [
    'a Content-Length that is not a number',
    () => `${post(['Content-Length: 1e3'])}\r\n${body}`,
    400,
  ],
  [
    'raw non-ASCII bytes in the request target',
    () =>
      Buffer.concat([
        Buffer.from('GET /api/v1/arthropod/collection?q='),
        Buffer.from('Sacramento–Yolo', 'utf8'),
        Buffer.from(` HTTP/1.1\r\n${head([]).split('\r\n').slice(0, -1).join('\r\n')}\r\n\r\n`),
      ]),
    400,
  ],
  [
    'headers over 16 KiB',
    () => `${head(['GET /api/session HTTP/1.1', `X-Padding: ${'a'.repeat(20_000)}`])}\r\n`,
    431,
  ],
];

describe('requests the HTTP parser refuses', () => {
  it.each(cases)(
    '%s: the contract error body, nosniff, no-store, connection closed',
    async (_, bytes, status) => {
      const res = await raw(bytes());
      expect(res.status, res.body).toBe(status);
      const parsed = errorBody.safeParse(JSON.parse(res.body));
      expect(parsed.success, res.body).toBe(true);
      expect(parsed.data?.error.code).toBe('bad_request');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
      expect(res.closed).toBe(true);
    },
  );

  it('go on serving ordinary requests afterwards', async () => {
    const res = await stack.api('/api/session', { cookie });
    expect(res.status).toBe(200);
  });
});

describe('the records service, asked directly (a compatible client without the BFF)', () => {
  it('answers what its HTTP parser refuses with the contract error body too', async () => {
    const host = new URL(stack.recordsUrl).host;
    const res = await raw(
      `POST /v1/arthropod/collection HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\nContent-Length: 3\r\n\r\n${body}`,
      stack.recordsUrl,
    );
    expect(res.status, res.body).toBe(400);
    expect(errorBody.safeParse(JSON.parse(res.body)).success, res.body).toBe(true);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.closed).toBe(true);
  });
});
