import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBffStack, type BffStack } from './helpers/bff-stack';
import { makeSite } from './helpers/record-bodies';

/**
 * A create whose answer was lost after an upstream that ignores Idempotency-Key (the hosted
 * public service) stored it, and whose record the data manager edited before the tablet's retry
 * (the tablet was out of signal for the afternoon; the manager reviewed the day's catches at the
 * office). The record's fields now say what the manager wrote, not what the create sent: the
 * lists cannot prove it is not this create's record, so it must never be created a second time.
 */
let stack: BffStack;
let cookie: string;
const LEASE_MS = 300;

beforeAll(async () => {
  stack = await startBffStack({
    records: { idempotency: false },
    bff: { journalLeaseMs: LEASE_MS },
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

describe('a lost create whose record was edited on the server before the retry', () => {
  it('is never created a second time', async () => {
    const site = (await post('/site', makeSite(), crypto.randomUUID())).json<{ id: number }>();
    const night = {
      site: site.id,
      collection_date: '2026-07-22',
      trap: 1,
      num_trap: 1,
      trap_nights: 1,
      arthropods: [{ species: 1, sex: 4, num_count: 12 }],
    };
    const key = crypto.randomUUID();
    const lost = stack.proxy.arm('POST', '/v1/arthropod/collection', 'drop');
    expect((await post('/arthropod/collection', night, key)).status).toBe(502);
    await lost;
    const stored = async () =>
      (
        await stack.records.db.query<{ id: number }>(
          'select id from collection where site = $1 order by id',
          [site.id],
        )
      ).rows.map((r) => r.id);
    const [made] = await stored();

    // Later, the data manager adds a note to the record (with the service's own tools).
    await new Promise((r) => setTimeout(r, 1_100));
    const token = await stack.records.login('demo-manager');
    const edit = await request(`${stack.recordsUrl}/v1/arthropod/collection/${made}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ comments: 'Checked at the office' }),
    });
    expect(edit.statusCode).toBe(200);
    await edit.body.dump();

    await new Promise((r) => setTimeout(r, LEASE_MS + 100));
    const retry = await post('/arthropod/collection', night, key);
    // The edited record may be this create's: "cannot tell", for the technician to check
    // (the app parks it), and never a second record.
    expect(retry.status).toBe(409);
    expect(retry.json()).toMatchObject({ error: { code: 'create_outcome_unknown' } });
    const again = await post('/arthropod/collection', night, key);
    expect(again.status).toBe(409);
    expect(again.json()).toEqual(retry.json());
    expect(await stored()).toEqual([made]);
  });
});
