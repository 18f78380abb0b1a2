import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBffStack, type BffStack } from './helpers/bff-stack';
import { makeCollection } from './helpers/record-bodies';

const COLLECTIONS = '/api/v1/arthropod/collection';
let stack: BffStack;
beforeAll(async () => {
  stack = await startBffStack({ records: { idempotency: false } });
});
afterAll(async () => {
  await stack?.close();
});

describe('an upstream 401 while reconciling a lost create', () => {
  it('ends the session token like any other 401, and the retry after signing in again replays the one record', async () => {
    const cookie = await stack.signIn();
    const body = makeCollection();
    const key = crypto.randomUUID();
    const create = (c: string) =>
      stack.api(COLLECTIONS, {
        method: 'POST',
        cookie: c,
        headers: { 'idempotency-key': key },
        body,
      });
    const lost = stack.proxy.arm('POST', '/v1/arthropod/collection', 'drop');
    expect((await create(cookie)).status).toBe(502);
    await lost;
    // The upstream revokes the token before its stated expiry.
    await stack.records.db.query("update api_token set revoked_at = now() where kind = 'login'");
    const refused = await create(cookie);
    expect(refused.status).toBe(401);
    expect(refused.json()).toMatchObject({ error: { code: 'reauth_required' } });
    // The BFF stops using the token at once: no request of this session goes upstream any more.
    const before = stack.proxy.seen.length;
    for (const path of ['/api/session', COLLECTIONS]) {
      const res = await stack.api(path, { cookie });
      expect(res.status, path).toBe(401);
      expect(res.json(), path).toMatchObject({ error: { code: 'reauth_required' } });
    }
    expect(stack.proxy.seen.length).toBe(before);

    const again = await stack.signIn();
    const retry = await create(again);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    const { rows } = await stack.records.db.query(
      'select id from collection where collection_date = $1::date::timestamptz',
      [body.collection_date],
    );
    expect(rows).toEqual([{ id: retry.json<{ id: number }>().id }]);
  });
});
