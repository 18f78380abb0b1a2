import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyJournal } from '../../../src/server/bff/idempotency-journal';
import type { Database } from '../../../src/server/db/database';
import { openTestDatabase } from '../helpers/test-database';

let db: Database;
let clock = Date.parse('2026-07-14T12:00:00Z');
const now = () => new Date(clock);
const LEASE_MS = 1_000;

beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await db?.close();
});

const request = (key: string, body = '{"code":"104233"}') => ({
  agencyId: 1,
  userKey: 'demo-tech',
  key,
  method: 'POST',
  path: '/v1/site',
  body,
});

describe('the idempotency journal', () => {
  it('gives a key to one request, and says in flight to the next until the lease ends', async () => {
    const journal = new IdempotencyJournal(db, LEASE_MS, now);
    const first = await journal.claim(request('k-lease'));
    expect(first.kind).toBe('forward');
    expect((await journal.claim(request('k-lease'))).kind).toBe('in_flight');
    clock += LEASE_MS + 1;
    const takeover = await journal.claim(request('k-lease'));
    expect(takeover.kind).toBe('reconcile');
  });

  it('refuses a late answer from an owner whose row was taken over', async () => {
    const journal = new IdempotencyJournal(db, LEASE_MS, now);
    const first = await journal.claim(request('k-late'));
    if (first.kind !== 'forward') throw new Error(first.kind);
    clock += LEASE_MS + 1;
    const second = await journal.claim(request('k-late'));
    if (second.kind !== 'reconcile') throw new Error(second.kind);
    const answer = { status: 201, contentType: 'application/json', body: '{"id":1}' };
    expect(await journal.answer(1, 'k-late', first.attempt, answer)).toBe(false);
    expect(await journal.answer(1, 'k-late', second.attempt, answer)).toBe(true);
    const replay = await journal.claim(request('k-late'));
    expect(replay).toMatchObject({ kind: 'replay', entry: { status: 201, response: '{"id":1}' } });
  });

  it('keeps keys apart per agency', async () => {
    const journal = new IdempotencyJournal(db, LEASE_MS, now);
    expect((await journal.claim(request('k-agency'))).kind).toBe('forward');
    expect((await journal.claim({ ...request('k-agency'), agencyId: 2 })).kind).toBe('forward');
  });

  it('forgets a key after 24 hours, so it may be used afresh', async () => {
    const journal = new IdempotencyJournal(db, LEASE_MS, now);
    const first = await journal.claim(request('k-old'));
    if (first.kind !== 'forward') throw new Error(first.kind);
    await journal.answer(1, 'k-old', first.attempt, {
      status: 201,
      contentType: undefined,
      body: '{}',
    });
    expect((await journal.claim(request('k-old', '{"code":"999999"}'))).kind).toBe('key_reused');
    clock += 24 * 3600_000 + 1;
    expect((await journal.claim(request('k-old', '{"code":"999999"}'))).kind).toBe('forward');
  });

  it('lets a retry forward afresh after a release (the upstream surely did not act)', async () => {
    const journal = new IdempotencyJournal(db, LEASE_MS, now);
    const first = await journal.claim(request('k-release'));
    if (first.kind !== 'forward') throw new Error(first.kind);
    await journal.release(1, 'k-release', first.attempt);
    expect((await journal.claim(request('k-release'))).kind).toBe('forward');
  });

  it('sends a retry to reconciliation at once after an abandon (outcome unknown)', async () => {
    const journal = new IdempotencyJournal(db, 60_000, now);
    const first = await journal.claim(request('k-abandon'));
    if (first.kind !== 'forward') throw new Error(first.kind);
    await journal.abandon(1, 'k-abandon', first.attempt);
    expect((await journal.claim(request('k-abandon'))).kind).toBe('reconcile');
  });
});
