import { createServer, type Server } from 'node:http';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHop, startBffStack, type BffStack } from './helpers/bff-stack';
import { makeSite } from './helpers/record-bodies';

/**
 * A create whose request was lost on the way to an upstream that ignores Idempotency-Key (the
 * hosted public service), while a colleague of the same agency stored a look-alike with another
 * tool (the service's own web pages, the R client: no key, so nothing in the BFF's journal). The
 * colleague's record carries the colleague as its `user` (from their token): it is not this
 * technician's create, so the retry must never be answered with it.
 */
function hop(targetUrl: string, publicLike: boolean) {
  let loseNextCreate = false;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (publicLike && req.url?.startsWith('/v1/me')) {
        // The public service has no GET /v1/me: the BFF knows the username, not the user id.
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":{"code":"not_found","message":"Not found"}}');
        return;
      }
      const isCreate = req.method === 'POST' && req.url?.startsWith('/v1/arthropod/collection');
      if (isCreate && loseNextCreate) {
        // The request never reaches the upstream: the connection breaks on the way.
        loseNextCreate = false;
        res.socket?.destroy();
        return;
      }
      const headers = { ...req.headers };
      for (const h of ['host', 'connection', 'content-length', 'keep-alive']) delete headers[h];
      // This hop passes bodies on as text: it asks the records service for uncompressed answers.
      delete headers['accept-encoding'];
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
    loseNextCreate: () => {
      loseNextCreate = true;
    },
  };
}

const LEASE_MS = 300;

describe.each([
  { upstream: 'that says who a token is (GET /v1/me)', publicLike: false },
  { upstream: 'that does not (the public service)', publicLike: true },
])(
  "a lost create and a colleague's look-alike made without a key, upstream $upstream",
  ({ publicLike }) => {
    let stack: BffStack;
    let h: ReturnType<typeof hop>;
    let cookie: string;

    beforeAll(async () => {
      stack = await startBffStack({
        records: { idempotency: false },
        bff: { journalLeaseMs: LEASE_MS },
        hop: (url) => serveHop((h = hop(url, publicLike)).server),
      });
      cookie = await stack.signIn('demo-tech');
    });

    afterAll(async () => {
      await stack?.close();
    });

    const post = (path: string, body: unknown, key: string) =>
      stack.api(`/api/v1${path}`, {
        method: 'POST',
        cookie,
        headers: { 'idempotency-key': key },
        body,
      });

    it("never answers the technician's retry with the colleague's record", async () => {
      const site = (await post('/site', makeSite(), crypto.randomUUID())).json<{ id: number }>();
      // Two CO2 traps at one site on one night, both empty: the two look alike in every field.
      const catchOfNight = {
        site: site.id,
        collection_date: '2026-07-21',
        trap: 1,
        num_trap: 1,
        trap_nights: 1,
      };
      const key = crypto.randomUUID();
      h.loseNextCreate();
      const first = await post('/arthropod/collection', catchOfNight, key);
      expect(first.status).toBe(502);

      // The colleague (demo-manager, same agency) enters their own trap's night with another tool.
      const token = await stack.records.login('demo-manager');
      const colleague = await request(`${stack.recordsUrl}/v1/arthropod/collection`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(catchOfNight),
      });
      expect(colleague.statusCode).toBe(201);
      const colleagueId = ((await colleague.body.json()) as { id: number }).id;

      await new Promise((r) => setTimeout(r, LEASE_MS + 100));
      const retry = await post('/arthropod/collection', catchOfNight, key);
      const stored = async () =>
        (
          await stack.records.db.query<{ id: number }>(
            'select id from collection where site = $1 order by id',
            [site.id],
          )
        ).rows.map((r) => r.id);
      if (!publicLike) {
        // The lists prove the technician's create was never made (the only look-alike is the
        // colleague's, by user id): it is sent again and makes the technician's own record.
        expect(retry.status).toBe(201);
        const own = retry.json<{ id: number }>();
        expect(own.id).not.toBe(colleagueId);
        expect((await post('/arthropod/collection', catchOfNight, key)).json()).toEqual(own);
        expect(await stored()).toEqual([colleagueId, own.id]);
      } else {
        // Only a username tells them apart, and a username may be spelt another way at sign-in:
        // "cannot tell", for the technician to check (the app parks it), never the colleague's.
        expect(retry.status).toBe(409);
        expect(retry.json()).toMatchObject({ error: { code: 'create_outcome_unknown' } });
        expect(await stored()).toEqual([colleagueId]);
      }
    });
  },
);
