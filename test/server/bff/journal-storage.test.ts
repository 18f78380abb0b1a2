import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBffStack, type BffStack } from './helpers/bff-stack';
import { makeCollection } from './helpers/record-bodies';

/**
 * Issue 36 N3: the journal kept every keyed POST's whole body for 24 h, refused ones included:
 * 100 refused creates with 1 MB comments grew the BFF's data by 199 MB in 5 s, and a body of
 * numbers like 1e20 was stored 4.6 times its size. Now a key keeps its body only while its
 * outcome is open (reconciliation compares it); once answered, the hash (to match retries) and
 * the answer are all it keeps; a body is never stored larger than the service would take, and
 * one user's keys are capped.
 */

const ENTRIES_PER_USER = 8;
let stack: BffStack;
let tech: string;
let manager: string;
beforeAll(async () => {
  stack = await startBffStack({ bff: { journalEntriesPerUser: ENTRIES_PER_USER } });
  tech = await stack.signIn('demo-tech');
  manager = await stack.signIn('demo-manager');
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

const create = (cookie: string, body: unknown, key: string) =>
  stack.api('/api/v1/arthropod/collection', {
    method: 'POST',
    cookie,
    body: body as Record<string, unknown>,
    headers: { 'idempotency-key': key },
  });

/** Bytes the journal holds for these keys: bodies and answers. */
async function storedBytes(keys: string[]) {
  const { rows } = await stack.records.db.query<{ bodies: number; answers: number; n: number }>(
    `select coalesce(sum(octet_length(coalesce(body, ''))), 0)::int as bodies,
            coalesce(sum(octet_length(coalesce(response, ''))), 0)::int as answers,
            count(*)::int as n
       from bff_idempotency where idem_key = any($1::text[])`,
    [keys],
  );
  return rows[0];
}

describe('what the journal keeps', () => {
  it('keeps no body of a refused create: 4 refusals with 900 kB comments cost only their answers', async () => {
    const keys = Array.from({ length: 4 }, () => randomUUID());
    for (const key of keys) {
      // Refused upstream: trap_nights 0 breaks the rule, and the comment is far over its limit.
      const res = await create(
        manager,
        makeCollection({ trap_nights: 0, comments: 'x'.repeat(900_000) }),
        key,
      );
      expect(res.status, res.text.slice(0, 300)).toBe(422);
    }
    const stored = await storedBytes(keys);
    expect(stored.bodies).toBe(0);
    expect(stored.answers).toBeLessThan(4 * 4_000);
  });

  it('keeps the hash, not the body, of an answered create: a retry replays, another body is refused', async () => {
    const key = randomUUID();
    const body = makeCollection({ comments: 'Culex near the weir' });
    const first = await create(manager, body, key);
    expect(first.status, first.text).toBe(201);
    expect((await storedBytes([key])).bodies).toBe(0);
    const retry = await create(manager, body, key);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json<{ id: number }>().id).toBe(first.json<{ id: number }>().id);
    const other = await create(manager, { ...body, comments: 'another record' }, key);
    expect(other.status).toBe(422);
    expect(other.json()).toMatchObject({ error: { code: 'idempotency_key_reused' } });
  });

  it('refuses (413) a body that would be stored over 1 MiB, before storing anything', async () => {
    const key = randomUUID();
    // 1e20 is 4 characters as sent and 21 once parsed and written out again.
    const text = `{"collection_date":"2026-07-14","num_trap":1,"trap":1,"trap_nights":1,"lures":[${Array(
      190_000,
    )
      .fill('1e20')
      .join(',')}]}`;
    expect(text.length).toBeLessThan(1024 * 1024);
    const res = await stack.api('/api/v1/arthropod/collection', {
      method: 'POST',
      cookie: manager,
      body: text,
      headers: { 'idempotency-key': key, 'content-type': 'application/json' },
    });
    expect(res.status, res.text.slice(0, 300)).toBe(413);
    expect(res.json()).toMatchObject({ error: { code: 'payload_too_large' } });
    expect((await storedBytes([key])).n).toBe(0);
  });
});

describe("one user's keys", () => {
  it('are capped: beyond the cap a new key is answered 429 with Retry-After; known keys still replay', async () => {
    const answered: Array<{ key: string; body: Record<string, unknown> }> = [];
    for (let i = 0; i < ENTRIES_PER_USER; i++) {
      const key = randomUUID();
      const body = makeCollection();
      const res = await create(tech, body, key);
      expect(res.status, res.text).toBe(201);
      answered.push({ key, body });
    }
    const over = await create(tech, makeCollection(), randomUUID());
    expect(over.status, over.text).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.json()).toMatchObject({ error: { code: 'rate_limited' } });
    // A retry of a create the journal knows is answered as before.
    const replay = await create(tech, answered[0].body, answered[0].key);
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    // Another user of the agency is not held back by this one.
    const colleague = await create(manager, makeCollection(), randomUUID());
    expect(colleague.status, colleague.text).toBe(201);
  });
});
