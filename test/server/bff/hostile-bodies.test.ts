import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '#shared/schemas/error';
import { startBffStack, type BffStack } from './helpers/bff-stack';
import { makeCollection } from './helpers/record-bodies';

/**
 * A body nested thousands of levels deep is valid JSON; a recursive walk over it (the journal's
 * canonical form, the records service's checks) would overflow the stack into a 500. Both
 * servers share one body parser, which refuses such a body before anything walks it.
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

const deepBody = (depth: number) =>
  JSON.stringify({ ...makeCollection(), comments: 'DEEP' }).replace(
    '"DEEP"',
    `${'['.repeat(depth)}${']'.repeat(depth)}`,
  );

describe('a body nested 10,000 levels deep through the BFF', () => {
  it.each([
    ['without', undefined],
    ['with', 'deep-bff-key-1'],
  ])('answers 400 bad_request %s an Idempotency-Key, and nothing is created', async (_, key) => {
    const before = await stack.records.db.query<{ n: number }>(
      'select count(*)::int as n from collection',
    );
    const res = await stack.api('/api/v1/arthropod/collection', {
      method: 'POST',
      cookie,
      headers: key ? { 'idempotency-key': key } : {},
      body: deepBody(10_000),
    });
    expect(res.status, res.text).toBe(400);
    expect(errorBody.parse(res.json()).error).toMatchObject({ code: 'bad_request' });
    expect(res.json<{ error: { message: string } }>().error.message).toMatch(/nested/);
    const after = await stack.records.db.query<{ n: number }>(
      'select count(*)::int as n from collection',
    );
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('still takes an ordinary collection', async () => {
    const res = await stack.api('/api/v1/arthropod/collection', {
      method: 'POST',
      cookie,
      body: makeCollection(),
    });
    expect(res.status, res.text).toBe(201);
  });
});
