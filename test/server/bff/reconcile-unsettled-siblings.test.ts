import { createServer, type Server } from 'node:http';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyJournal } from '../../../src/server/bff/idempotency-journal';
import { canonicalJson } from '../../../src/server/bff/parse-json';
import { serveHop, startBffStack, type BffStack } from './helpers/bff-stack';
import { makeSite } from './helpers/record-bodies';

/**
 * Look-alike creates settled from the lists of an upstream that ignores Idempotency-Key: a stored
 * record is given to a key only while no other key whose create could have made it is unsettled
 * in the journal (IdempotencyJournal.otherKeys), and at most one key is ever given a record (the
 * unique index of migration 7; a reconciliation that loses the race answers 409
 * create_outcome_unknown). Which sibling's tablet retries first, or two retrying at once, never
 * decides whose record it is.
 */

/**
 * An HTTP hop between the BFF and an upstream that ignores Idempotency-Key (the records service
 * with its own idempotency off, standing for the hosted public service). It can lose the answer
 * to the next create after the upstream made it, and can hold list answers so that two arrive
 * together (two reconciliations reading the upstream at the same moment).
 */
function hop(targetUrl: string) {
  let dropNextCreate = false;
  let listBarrier = 0;
  let waiting: Array<() => void> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const isCreate = req.method === 'POST' && req.url?.startsWith('/v1/arthropod/collection');
      const drop = isCreate && dropNextCreate;
      if (drop) dropNextCreate = false;
      const isList = req.method === 'GET' && req.url?.startsWith('/v1/arthropod/collection');
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
        if (drop) return res.socket?.destroy();
        if (isList && listBarrier > 0) {
          // Hold list answers until `listBarrier` of them are ready, then answer them together.
          await new Promise<void>((r) => {
            waiting.push(r);
            if (waiting.length >= listBarrier) {
              const all = waiting;
              waiting = [];
              listBarrier = 0;
              for (const w of all) w();
            }
          });
        }
        res.writeHead(up.statusCode, {
          'content-type': String(up.headers['content-type'] ?? 'application/json'),
        });
        res.end(text);
      })().catch(() => res.socket?.destroy());
    });
  });
  return {
    server,
    dropNextCreate: () => {
      dropNextCreate = true;
    },
    /** The next `n` list answers are held until all `n` are ready, then sent together. */
    answerListsTogether: (n: number) => {
      listBarrier = n;
    },
  };
}

let stack: BffStack;
let h: ReturnType<typeof hop>;
let cookie: string;

beforeAll(async () => {
  stack = await startBffStack({
    records: { idempotency: false },
    hop: (url) => serveHop((h = hop(url)).server),
  });
  cookie = await stack.signIn();
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

/*
 * The test of two reconciliations at the same time shows the race only with the BFF journal on
 * PostgreSQL (TRAPLINE_TEST_DATABASE_URL): on PGlite each reconciliation's journal reads and
 * writes resolve without I/O, so two never interleave in one process; on PostgreSQL (and with
 * several BFF workers, start-workers.ts) they do.
 */

/**
 * Two CO2 traps of one kind at one site on one night with the same catch (look-alike siblings).
 * Trap A was created upstream and its answer lost on the way back; for trap B a BFF process
 * recorded the key a minute ago and was killed before it forwarded (so B was never created).
 */
async function lostTwins(date: string) {
  const site = (await post('/site', makeSite(), crypto.randomUUID())).json<{ id: number }>();
  const agencyId = (await stack.api('/api/session', { cookie })).json<{
    agency: { id: number };
  }>().agency.id;
  const twin = {
    site: site.id,
    collection_date: date,
    trap: 1,
    num_trap: 1,
    trap_nights: 1,
    arthropods: [{ species: 1, sex: 4, num_count: 12 }],
  };
  const keyA = crypto.randomUUID();
  const keyB = crypto.randomUUID();
  h.dropNextCreate();
  expect((await post('/arthropod/collection', twin, keyA)).status).toBe(502);
  const dead = new IdempotencyJournal(stack.records.db, 0, () => new Date(Date.now() - 60_000));
  const claimB = await dead.claim({
    agencyId,
    key: keyB,
    method: 'POST',
    path: '/v1/arthropod/collection',
    body: canonicalJson(twin),
  });
  expect(claimB.kind).toBe('forward');
  const stored = async () =>
    (
      await stack.records.db.query<{ id: number }>(
        'select id from collection where site = $1 order by id',
        [site.id],
      )
    ).rows.map((r) => r.id);
  const [recordOfA] = await stored();
  return { twin, keyA, keyB, recordOfA, stored };
}

const idOf = (a: { status: number; json: <T>() => T }) =>
  a.status === 201 ? a.json<{ id: number }>().id : null;

describe('look-alike creates settled from the lists', () => {
  it("does not answer a key whose create never reached the upstream with its sibling's record", async () => {
    const { twin, keyB, recordOfA } = await lostTwins('2026-07-20');
    // Trap B's tablet retries first.
    const retryB = await post('/arthropod/collection', twin, keyB);
    expect(
      { status: retryB.status, answeredId: idOf(retryB), recordCreatedByKeyA: recordOfA },
      'key B is answered 201 with the record key A created',
    ).not.toMatchObject({ status: 201, answeredId: recordOfA });
  });

  it('never gives one stored record to two keys reconciled at the same time', async () => {
    const { twin, keyA, keyB, stored } = await lostTwins('2026-07-21');
    // Both tablets retry at once, and the upstream's two list answers arrive together.
    h.answerListsTogether(2);
    const [retryA, retryB] = await Promise.all([
      post('/arthropod/collection', twin, keyA),
      post('/arthropod/collection', twin, keyB),
    ]);
    const outcome = {
      statuses: [retryA.status, retryB.status],
      answeredIds: [idOf(retryA), idOf(retryB)],
      storedIds: await stored(),
    };
    const oneRecordForTwoKeys =
      outcome.answeredIds[0] !== null && outcome.answeredIds[0] === outcome.answeredIds[1];
    expect(oneRecordForTwoKeys, JSON.stringify(outcome)).toBe(false);
  });
});

describe('giving a record to a key in the journal', () => {
  const path = '/v1/arthropod/collection';
  const created = (id: number) => ({
    status: 201,
    contentType: 'application/json',
    body: JSON.stringify({ id }),
  });
  async function claimed(journal: IdempotencyJournal, body: string) {
    const key = crypto.randomUUID();
    const claim = await journal.claim({ agencyId: 1, key, method: 'POST', path, body });
    if (claim.kind !== 'forward') throw new Error(claim.kind);
    return { key, attempt: claim.attempt };
  }

  it('gives one record to one key even when two reconciliations write at once', async () => {
    const journal = new IdempotencyJournal(stack.records.db, 60_000, () => new Date());
    const id = 900_000 + Math.floor(Math.random() * 100_000);
    const [a, b] = [await claimed(journal, '{"n":1}'), await claimed(journal, '{"n":2}')];
    const outcomes = await Promise.all([
      journal.answerReconciled(1, a.key, a.attempt, created(id)),
      journal.answerReconciled(1, b.key, b.attempt, created(id)),
    ]);
    expect([...outcomes].sort()).toEqual(['answered', 'record_taken']);
    // The key that lost is still unsettled, its own for a later retry to reconcile.
    const loser = outcomes[0] === 'record_taken' ? a : b;
    expect((await journal.find(1, loser.key))?.state).toBe('forwarded');
  });

  it("records a forward's own answer even when its record was already given to another key", async () => {
    const journal = new IdempotencyJournal(stack.records.db, 60_000, () => new Date());
    const id = 900_000 + Math.floor(Math.random() * 100_000);
    const a = await claimed(journal, '{"n":3}');
    const b = await claimed(journal, '{"n":4}');
    expect(await journal.answerReconciled(1, a.key, a.attempt, created(id))).toBe('answered');
    // The upstream answered b's own forward: replayed to b's retries, never a 500.
    expect(await journal.answer(1, b.key, b.attempt, created(id))).toBe(true);
    expect(await journal.find(1, b.key)).toMatchObject({
      state: 'answered',
      response: JSON.stringify({ id }),
    });
    const others = await journal.otherKeys(1, path, crypto.randomUUID(), [id]);
    expect([...others.given]).toEqual([id]);
  });
});
