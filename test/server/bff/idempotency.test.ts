import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyJournal } from '../../../src/server/bff/idempotency-journal';
import { canonicalJson } from '../../../src/server/bff/parse-json';
import { startBffStack, type BffStack } from './helpers/bff-stack';
import { appRequest } from './helpers/bff-stack';
import { makeCollection, makeSite } from './helpers/record-bodies';

const COLLECTIONS = '/api/v1/arthropod/collection';

async function collectionsOn(stack: BffStack, date: unknown): Promise<number> {
  const { rows } = await stack.records.db.query<{ n: number }>(
    'select count(*)::int as n from collection where collection_date = $1::date::timestamptz',
    [date],
  );
  return rows[0].n;
}

const postsSeen = (stack: BffStack) =>
  stack.proxy.seen.filter((s) => s.method === 'POST' && s.path === '/v1/arthropod/collection')
    .length;

for (const recordsIdempotency of [true, false]) {
  describe(`retries never duplicate (records service's own idempotency ${recordsIdempotency ? 'on' : 'off'})`, () => {
    let stack: BffStack;
    let cookie: string;
    beforeAll(async () => {
      stack = await startBffStack({ records: { idempotency: recordsIdempotency } });
      cookie = await stack.signIn();
    });
    afterAll(async () => {
      await stack?.close();
    });
    const create = (body: unknown, key: string, c = cookie) =>
      stack.api(COLLECTIONS, {
        method: 'POST',
        cookie: c,
        headers: { 'idempotency-key': key },
        body,
      });

    it('replays the recorded answer to a retry without forwarding it again', async () => {
      const body = makeCollection();
      const key = crypto.randomUUID();
      const before = postsSeen(stack);
      const first = await create(body, key);
      const again = await create(body, key);
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.json()).toEqual(first.json());
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(postsSeen(stack) - before).toBe(1);
      expect(await collectionsOn(stack, body.collection_date)).toBe(1);
    });

    it('treats the same body in another key order as the same request', async () => {
      const body = makeCollection();
      const key = crypto.randomUUID();
      const first = await create(body, key);
      const reordered = Object.fromEntries(Object.entries(body).reverse());
      const again = await create(reordered, key);
      expect(again.status).toBe(201);
      expect(again.json()).toEqual(first.json());
    });

    it('refuses the same key with a different body: 422 idempotency_key_reused', async () => {
      const key = crypto.randomUUID();
      const body = makeCollection();
      expect((await create(body, key)).status).toBe(201);
      const before = postsSeen(stack);
      const other = await create({ ...body, num_trap: 2 }, key);
      expect(other.status).toBe(422);
      // Contract §2: a 422 names its fields; here the failing "field" is the header.
      expect(other.json()).toMatchObject({
        error: { code: 'idempotency_key_reused', fields: [{ path: 'Idempotency-Key' }] },
      });
      expect(postsSeen(stack)).toBe(before);
    });

    it('yields exactly one record when the answer is lost after the records service committed', async () => {
      const body = makeCollection();
      const key = crypto.randomUUID();
      const lost = stack.proxy.arm('POST', '/v1/arthropod/collection', 'drop');
      const first = await create(body, key);
      await lost;
      expect(first.status).toBe(502);
      expect(first.json()).toMatchObject({ error: { code: 'upstream_unavailable' } });
      expect(await collectionsOn(stack, body.collection_date)).toBe(1);
      const retry = await create(body, key);
      expect(retry.status).toBe(201);
      expect(retry.json<{ collection_date: string }>().collection_date).toBe(
        `${body.collection_date as string}T00:00:00.000Z`,
      );
      const third = await create(body, key);
      expect(third.json()).toEqual(retry.json());
      expect(await collectionsOn(stack, body.collection_date)).toBe(1);
    });

    it('finds a site by code and a pool by collection, species, sex and count after lost answers', async () => {
      const site = makeSite();
      const siteKey = crypto.randomUUID();
      const postSite = () =>
        stack.api('/api/v1/site', {
          method: 'POST',
          cookie,
          headers: { 'idempotency-key': siteKey },
          body: site,
        });
      const lostSite = stack.proxy.arm('POST', '/v1/site', 'drop');
      expect((await postSite()).status).toBe(502);
      await lostSite;
      const siteRetry = await postSite();
      expect(siteRetry.status).toBe(201);
      const siteId = siteRetry.json<{ id: number }>().id;
      const sites = await stack.records.db.query('select id from site where code = $1', [
        site.code,
      ]);
      expect(sites.rows).toEqual([{ id: siteId }]);

      const collection = (
        await create(makeCollection({ site: siteId, location: undefined }), crypto.randomUUID())
      ).json<{
        id: number;
      }>();
      const pool = { collection: collection.id, species: 1, sex: 4, num_count: 5 };
      const poolKey = crypto.randomUUID();
      const postPool = () =>
        stack.api('/api/v1/arthropod/pool', {
          method: 'POST',
          cookie,
          headers: { 'idempotency-key': poolKey },
          body: pool,
        });
      const lostPool = stack.proxy.arm('POST', '/v1/arthropod/pool', 'drop');
      expect((await postPool()).status).toBe(502);
      await lostPool;
      const poolRetry = await postPool();
      expect(poolRetry.status).toBe(201);
      expect(poolRetry.json()).toMatchObject({ num_count: 5 });
      const pools = await stack.records.db.query('select id from pool where collection = $1', [
        collection.id,
      ]);
      expect(pools.rows).toHaveLength(1);
    });

    it('creates one record when the same key arrives many times at once', async () => {
      const body = makeCollection();
      const key = crypto.randomUUID();
      const answers = await Promise.all(Array.from({ length: 6 }, () => create(body, key)));
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
      expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
      expect(await collectionsOn(stack, body.collection_date)).toBe(1);
    });

    it('answers 409 idempotency_in_flight to a duplicate while the first is still upstream', async () => {
      const body = makeCollection();
      const key = crypto.randomUUID();
      // A sibling BFF process (same database) forwards the first request; its answer is held.
      const slow = await stack.startSibling({ upstreamTimeoutMs: 1_500 });
      const held = stack.proxy.arm('POST', '/v1/arthropod/collection', 'hold');
      const first = appRequest(slow.url)(COLLECTIONS, {
        method: 'POST',
        cookie,
        headers: { 'idempotency-key': key },
        body,
      });
      await held;
      const duplicate = await create(body, key);
      expect(duplicate.status).toBe(409);
      expect(duplicate.json()).toMatchObject({ error: { code: 'idempotency_in_flight' } });
      expect((await first).status).toBe(504);
      const retry = await create(body, key);
      expect(retry.status).toBe(201);
      expect(await collectionsOn(stack, body.collection_date)).toBe(1);
    });

    it('reconciles after a BFF died between forwarding and recording, instead of creating again', async () => {
      const body = makeCollection();
      const key = crypto.randomUUID();
      // Process A forwards, the records service commits, and A never hears back (it "died"): its
      // journal row stays forwarded-but-unanswered; its lease is short so the test need not wait.
      const doomed = await stack.startSibling({ journalLeaseMs: 300, upstreamTimeoutMs: 60_000 });
      const held = stack.proxy.arm('POST', '/v1/arthropod/collection', 'hold');
      const orphan = appRequest(doomed.url)(COLLECTIONS, {
        method: 'POST',
        cookie,
        headers: { 'idempotency-key': key },
        body,
      }).catch(() => undefined);
      await held;
      const { rows } = await stack.records.db.query<{ state: string }>(
        'select state from bff_idempotency where idem_key = $1',
        [key],
      );
      expect(rows.map((r) => r.state)).toEqual(['forwarded']);
      await new Promise((r) => setTimeout(r, 400));

      // A new BFF instance on the same database gets the app's retry.
      const restarted = await stack.startSibling();
      const before = postsSeen(stack);
      const retry = await appRequest(restarted.url)(COLLECTIONS, {
        method: 'POST',
        cookie,
        headers: { 'idempotency-key': key },
        body,
      });
      expect(retry.status).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      // An upstream that honours keys is asked again with the same key and replays its record;
      // one that does not is only read (its lists prove the record), never sent the create again.
      expect(postsSeen(stack) - before).toBe(recordsIdempotency ? 1 : 0);
      expect(await collectionsOn(stack, body.collection_date)).toBe(1);
      void orphan;
    });

    it('forwards again when reconciliation finds that the upstream never got the create', async () => {
      const body = makeCollection();
      const key = crypto.randomUUID();
      const agencyId = (await stack.api('/api/session', { cookie })).json<{
        agency: { id: number };
      }>().agency.id;
      // A BFF that claimed the key and died before its request left, long enough ago that the
      // request cannot still be running upstream (its lease is over).
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
      const retry = await create(body, key);
      expect(retry.status).toBe(201);
      expect(await collectionsOn(stack, body.collection_date)).toBe(1);
      expect((await create(body, key)).json()).toEqual(retry.json());
    });
  });
}
