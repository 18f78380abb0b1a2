import { createServer, type Server } from 'node:http';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyJournal } from '../../../src/server/bff/idempotency-journal';
import { canonicalJson } from '../../../src/server/bff/parse-json';
import { serveHop, startBffStack, type BffStack } from './helpers/bff-stack';
import { makeCollection } from './helpers/record-bodies';

/**
 * A create whose answer was lost, against an upstream that ignores Idempotency-Key: when
 * reconciliation finds nothing and sends the create again, the journal records that send's time
 * and a new lease (IdempotencyJournal.resend). A retry arriving while that send may still be
 * running upstream is told to wait (409 idempotency_in_flight) rather than reconciling from the
 * first send's time, finding nothing yet and sending a third time.
 */

/**
 * An HTTP hop between the BFF and an upstream that does not honour Idempotency-Key (the records
 * service with its own idempotency off, as the public service): every request is passed on, but
 * the next collection POST reaches the upstream only `delayMs` after it arrived (a slow upstream,
 * a congested network). The request is delivered even if the BFF gave up waiting meanwhile, as a
 * real server keeps processing a request whose client went away.
 */
function slowHop(targetUrl: string) {
  let delayNextCreateMs = 0;
  const pending: Promise<unknown>[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let delay = 0;
      if (req.method === 'POST' && req.url?.startsWith('/v1/arthropod/collection')) {
        delay = delayNextCreateMs;
        delayNextCreateMs = 0;
      }
      const headers = { ...req.headers };
      delete headers.host;
      delete headers.connection;
      delete headers['content-length'];
      delete headers['keep-alive'];
      // This hop passes bodies on as text: it asks the records service for uncompressed answers.
      delete headers['accept-encoding'];
      const done = (async () => {
        await new Promise((r) => setTimeout(r, delay));
        const up = await request(`${targetUrl}${req.url}`, {
          method: req.method as 'GET',
          headers: headers as Record<string, string>,
          body: chunks.length ? Buffer.concat(chunks) : undefined,
        });
        const text = await up.body.text();
        if (!res.writableEnded && !res.destroyed) {
          res.writeHead(up.statusCode, {
            'content-type': String(up.headers['content-type'] ?? 'application/json'),
          });
          res.end(text);
        }
      })().catch(() => undefined);
      pending.push(done);
    });
  });
  return {
    server,
    delayNextCreate(ms: number) {
      delayNextCreateMs = ms;
    },
    settled: () => Promise.all(pending),
  };
}

let stack: BffStack;
let hop: ReturnType<typeof slowHop>;
let cookie: string;

beforeAll(async () => {
  // An upstream that ignores Idempotency-Key: only the BFF journal stands between retries and
  // duplicates.
  stack = await startBffStack({
    records: { idempotency: false },
    // The lease outlasts the test's requests however loaded the machine (a 1 s lease expired
    // before the third attempt under the full suite's load, and it was then rightly forwarded).
    // The response timeout leaves room for a sign-in under the suite's load (at 500 ms the
    // sign-in itself timed out now and then, 504 in beforeAll).
    bff: { upstreamTimeoutMs: 2_000, journalLeaseMs: 15_000 },
    hop: (url) => serveHop((hop = slowHop(url)).server),
  });
  cookie = await stack.signIn();
});

afterAll(async () => {
  await stack?.close();
});

describe('sending a create again from reconciliation (upstream ignores Idempotency-Key)', () => {
  it('never forwards a create a third time while the second forward may still be running upstream', async () => {
    const body = makeCollection();
    const key = crypto.randomUUID();
    const create = () =>
      stack.api('/api/v1/arthropod/collection', {
        method: 'POST',
        cookie,
        headers: { 'idempotency-key': key },
        body,
      });
    const agencyId = (await stack.api('/api/session', { cookie })).json<{
      agency: { id: number };
    }>().agency.id;

    // Attempt 1: a BFF process claimed the key ten minutes ago and died (its request never left).
    const dead = new IdempotencyJournal(
      stack.records.db,
      0,
      () => new Date(Date.now() - 10 * 60_000),
    );
    const claim = await dead.claim({
      agencyId,
      key,
      method: 'POST',
      path: '/v1/arthropod/collection',
      body: canonicalJson(body),
    });
    expect(claim.kind).toBe('forward');

    // Attempt 2 (the app's retry): reconciliation finds nothing, so the BFF forwards again. The
    // upstream is slow this time: the BFF gives up after its 2 s response timeout (504), while
    // the create is still on its way and lands 4 s later.
    hop.delayNextCreate(6_000);
    const second = await create();
    expect(second.status).toBe(504);

    // Attempt 3 (the app retries after the 504): the second forward may still be running
    // upstream, so the BFF must not forward yet (409 idempotency_in_flight).
    const third = await create();

    await hop.settled();
    await new Promise((r) => setTimeout(r, 300));
    const { rows } = await stack.records.db.query<{ id: number }>(
      'select id from collection where collection_date = $1::date::timestamptz',
      [body.collection_date],
    );
    // One create, one record.
    expect({ third: third.status, stored: rows.length }).toEqual({
      third: 409,
      stored: 1,
    });
  });
});
