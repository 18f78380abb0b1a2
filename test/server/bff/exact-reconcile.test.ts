import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBffStack, type BffStack } from './helpers/bff-stack';
import { makeCollection, makeSite } from './helpers/record-bodies';

/**
 * D1 (issue "Nothing lost, ever"): a retried create whose first answer was lost must be answered
 * with its own record, never with a look-alike sibling's. Field work makes look-alikes every day:
 * two traps of one kind at a site on one day, two equal pools from one collection, two same-day
 * tests of a pool. Each case below loses the first sibling's answer after the records service
 * committed it, stores the second sibling normally, retries the first, and checks both records
 * exist and each key was answered with its own.
 */
for (const upstreamHonoursKeys of [true, false]) {
  describe(`look-alike creates after a lost answer (upstream ${upstreamHonoursKeys ? 'honours' : 'ignores'} Idempotency-Key)`, () => {
    let stack: BffStack;
    let cookie: string;
    beforeAll(async () => {
      stack = await startBffStack({ records: { idempotency: upstreamHonoursKeys } });
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

    /**
     * Creates `body` twice under two keys. The first one's answer is lost after the records
     * service committed it; the sibling is created normally while the first waits for its retry
     * (as a sync queue goes on with other entries); then the first is retried. Returns both ids.
     */
    async function twins(path: string, body: Record<string, unknown>) {
      const key = crypto.randomUUID();
      const lost = stack.proxy.arm('POST', `/v1${path}`, 'drop');
      expect((await post(path, body, key)).status).toBe(502);
      await lost;
      const sibling = await post(path, body, crypto.randomUUID());
      expect(sibling.status).toBe(201);
      const retry = await post(path, body, key);
      expect(retry.status).toBe(201);
      const again = await post(path, body, key);
      expect(again.json()).toEqual(retry.json());
      return { first: retry.json<{ id: number }>().id, second: sibling.json<{ id: number }>().id };
    }

    const count = async (sql: string, params: unknown[]) =>
      (await stack.records.db.query<{ n: number }>(sql, params)).rows[0].n;

    it('two collections at one site on one day with the same trap and catch: both stored, each answered with its own', async () => {
      const site = (await post('/site', makeSite(), crypto.randomUUID())).json<{ id: number }>();
      const body = makeCollection({ site: site.id, location: undefined });
      const { first, second } = await twins('/arthropod/collection', body);
      expect(second).not.toBe(first);
      expect(
        await count('select count(*)::int as n from collection where site = $1', [site.id]),
      ).toBe(2);
    });

    it('two equal pools from one collection: both stored, each answered with its own', async () => {
      const collection = (
        await post(
          '/arthropod/collection',
          makeCollection({ arthropods: [{ species: 1, sex: 4, num_count: 50 }] }),
          crypto.randomUUID(),
        )
      ).json<{ id: number }>();
      const pool = { collection: collection.id, species: 1, sex: 4, num_count: 10 };
      const { first, second } = await twins('/arthropod/pool', pool);
      expect(second).not.toBe(first);
      expect(
        await count('select count(*)::int as n from pool where collection = $1', [collection.id]),
      ).toBe(2);
    });

    it('two same-day tests of one pool: both stored, each answered with its own', async () => {
      const collection = (
        await post('/arthropod/collection', makeCollection(), crypto.randomUUID())
      ).json<{ id: number; collection_date: string }>();
      const pool = (
        await post(
          '/arthropod/pool',
          { collection: collection.id, species: 1, sex: 4, num_count: 5 },
          crypto.randomUUID(),
        )
      ).json<{ id: number }>();
      const test = {
        pool: pool.id,
        method: 1,
        target: 1,
        status: 2,
        test_date: collection.collection_date.slice(0, 10),
        test_agency: 1,
      };
      const { first, second } = await twins('/arthropod/pool/test', test);
      expect(second).not.toBe(first);
      expect(
        await count('select count(*)::int as n from pool_test where pool = $1', [pool.id]),
      ).toBe(2);
    });

    it('two look-alike collections whose answers were both lost: never answered with a guess, never created twice', async () => {
      const body = makeCollection();
      const keys = [crypto.randomUUID(), crypto.randomUUID()];
      for (const key of keys) {
        const lost = stack.proxy.arm('POST', '/v1/arthropod/collection', 'drop');
        expect((await post('/arthropod/collection', body, key)).status).toBe(502);
        await lost;
      }
      const answers = [];
      for (const key of keys) answers.push(await post('/arthropod/collection', body, key));
      const stored = await count(
        'select count(*)::int as n from collection where collection_date = $1::date::timestamptz',
        [body.collection_date],
      );
      expect(stored).toBe(2);
      if (upstreamHonoursKeys) {
        // The upstream answers each key with the record it made for that key.
        expect(answers.map((a) => a.status)).toEqual([201, 201]);
        expect(answers[0].json<{ id: number }>().id).not.toBe(answers[1].json<{ id: number }>().id);
      } else {
        // Two records fit each key equally: the BFF says it cannot tell, and the app parks it.
        for (const a of answers) {
          expect(a.status).toBe(409);
          expect(a.json()).toMatchObject({ error: { code: 'create_outcome_unknown' } });
        }
      }
    });
  });
}
