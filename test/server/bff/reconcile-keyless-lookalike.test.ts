import { createServer, type Server } from 'node:http';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHop, startBffStack, type BffStack } from './helpers/bff-stack';
import { makeCollection } from './helpers/record-bodies';

/**
 * Issue 36 N6, the exact sequence: with an upstream that ignores Idempotency-Key, a technician
 * stores a collection without a key (201, id N); then a look-alike with a key, whose request is
 * reset before it reaches the upstream (502); the retry reconciled, found N as the only
 * whole-body match no key owned, and replayed it: the second collection was never made.
 * A record made without a key is noted by the journal as that create's own, so the retry knows
 * N is not its record: it sends the create again, and the second collection is stored once.
 */
function resettingHop(targetUrl: string) {
  let resetNextCreate = false;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const isCreate = req.method === 'POST' && req.url?.startsWith('/v1/arthropod/collection');
      if (isCreate && resetNextCreate) {
        // Reset before forwarding: the upstream never sees this request.
        resetNextCreate = false;
        res.socket?.destroy();
        return;
      }
      const headers = { ...req.headers };
      for (const h of ['host', 'connection', 'content-length', 'keep-alive']) delete headers[h];
      void (async () => {
        const up = await request(`${targetUrl}${req.url}`, {
          method: req.method as 'GET',
          headers: headers as Record<string, string>,
          body: chunks.length ? Buffer.concat(chunks) : undefined,
        });
        const text = await up.body.text();
        res.writeHead(up.statusCode, {
          'content-type': String(up.headers['content-type'] ?? 'application/json'),
        });
        res.end(text);
      })().catch(() => res.socket?.destroy());
    });
  });
  return {
    server,
    resetNextCreate: () => {
      resetNextCreate = true;
    },
  };
}

const LEASE_MS = 300;

describe('a lost keyed create whose only look-alike was made without a key', () => {
  let stack: BffStack;
  let hop: ReturnType<typeof resettingHop>;
  let cookie: string;

  beforeAll(async () => {
    stack = await startBffStack({
      records: { idempotency: false },
      bff: { journalLeaseMs: LEASE_MS },
      hop: (url) => serveHop((hop = resettingHop(url)).server),
    });
    cookie = await stack.signIn('demo-tech');
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
  });

  const post = (body: unknown, key?: string) =>
    stack.api('/api/v1/arthropod/collection', {
      method: 'POST',
      cookie,
      headers: key ? { 'idempotency-key': key } : {},
      body,
    });

  it('is never answered with that record: the second collection is made, once', async () => {
    const body = makeCollection({ comments: 'second CO2 trap at the weir' });
    const keyless = await post(body);
    expect(keyless.status, keyless.text).toBe(201);
    const firstId = keyless.json<{ id: number }>().id;

    const key = crypto.randomUUID();
    hop.resetNextCreate();
    const lost = await post(body, key);
    expect(lost.status, lost.text).toBe(502);

    await new Promise((r) => setTimeout(r, LEASE_MS + 100));
    const retry = await post(body, key);
    expect(retry.status, retry.text).toBe(201);
    const retryId = retry.json<{ id: number }>().id;
    expect(retryId).not.toBe(firstId);

    // And the key keeps that answer: a further retry replays the same record.
    const again = await post(body, key);
    expect(again.status).toBe(201);
    expect(again.json<{ id: number }>().id).toBe(retryId);

    const { rows } = await stack.records.db.query<{ id: number }>(
      'select id from collection where comments = $1 order by id',
      ['second CO2 trap at the weir'],
    );
    expect(rows.map((r) => Number(r.id))).toEqual([firstId, retryId]);
  });
});
