import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyJournal } from '../../../src/server/bff/idempotency-journal';
import { canonicalJson } from '../../../src/server/bff/parse-json';
import { storedAsCreated } from '../../../src/server/bff/stored-match';
import { startBffStack, type BffStack } from './helpers/bff-stack';
import { makeSite } from './helpers/record-bodies';

/**
 * Upstream that ignores Idempotency-Key (the hosted public service; here the records service with
 * its own idempotency off): a create whose outcome is unknown is settled from the upstream's lists
 * (reconcile-create.ts), which accept a stored record only when it is "the whole body as stored"
 * (ARCHITECTURE, BFF): the fields the create sent equal, and the optional fields it left out
 * (catch, comments, lures, trap problem, identifier...) still empty (stored-match.ts,
 * storedAsCreated). A look-alike sibling that holds more than the create sent is not its record.
 */
describe('reconciliation with a look-alike that holds more than the create sent', () => {
  let stack: BffStack;
  let cookie: string;
  beforeAll(async () => {
    stack = await startBffStack({
      records: { idempotency: false },
      bff: { journalLeaseMs: 300 },
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

  it('never answers a create with a sibling whose catch the create did not send', async () => {
    const site = (await post('/site', makeSite(), crypto.randomUUID())).json<{ id: number }>();
    const agencyId = (await stack.api('/api/session', { cookie })).json<{
      agency: { id: number };
    }>().agency.id;
    // Two CO2 traps at one site on one night. Trap A caught nothing (no abundance rows);
    // trap B caught 50 Culex tarsalis females.
    const trapA = {
      site: site.id,
      collection_date: '2026-07-14',
      trap: 1,
      num_trap: 1,
      trap_nights: 1,
    };
    const trapB = {
      ...trapA,
      arthropods: [{ species: 1, sex: 4, num_count: 50 }],
      comments: 'second CO2 trap, north bank',
    };
    const keyA = crypto.randomUUID();
    const keyB = crypto.randomUUID();

    // Trap A: the BFF recorded the key and was killed before the request left.
    const dead = new IdempotencyJournal(stack.records.db, 0, () => new Date(Date.now() - 60_000));
    const claim = await dead.claim({
      agencyId,
      key: keyA,
      method: 'POST',
      path: '/v1/arthropod/collection',
      body: canonicalJson(trapA),
    });
    expect(claim.kind).toBe('forward');

    // Trap B: created upstream, its answer lost on the way back.
    const lost = stack.proxy.arm('POST', '/v1/arthropod/collection', 'drop');
    expect((await post('/arthropod/collection', trapB, keyB)).status).toBe(502);
    await lost;

    // The app retries trap A, then (later) trap B.
    const retryA = await post('/arthropod/collection', trapA, keyA);
    await new Promise((r) => setTimeout(r, 400));
    const retryB = await post('/arthropod/collection', trapB, keyB);

    const { rows } = await stack.records.db.query<{
      id: number;
      caught: number;
      comments: string | null;
    }>(
      `select c.id, coalesce(sum(a.num_count), 0)::int as caught, c.comments
         from collection c left join abundance a on a.collection = c.id and a.deactive_date is null
        where c.site = $1 group by c.id order by c.id`,
      [site.id],
    );
    const answeredA = retryA.json<{ id: number; comments: string | null }>();
    expect({
      retryA: retryA.status,
      retryB: retryB.status,
      // Trap A's answer is its own record: no comments, nothing caught.
      answeredAComments: answeredA.comments ?? null,
      // What the data manager sees at the site that night: 0 + 50 caught.
      stored: rows.map((r) => r.caught).sort((a, b) => a - b),
    }).toEqual({ retryA: 201, retryB: 201, answeredAComments: null, stored: [0, 50] });
  });
});

describe('storedAsCreated: the whole body of a create as stored', () => {
  const body = { site: 12, collection_date: '2026-07-14', trap: 1, num_trap: 1, trap_nights: 1 };
  /** A collection as the records service stores `body`, fields it fills in itself included. */
  const stored = (more: Record<string, unknown> = {}) => ({
    id: 7,
    ...body,
    collection_date: '2026-07-14T00:00:00.000Z',
    collection_date_date_only: true,
    collection_num: 31,
    surv_year: 2026,
    agency: 1,
    user: 2,
    location: { id: 9, shape: { type: 'Point', coordinates: [-121.5, 38.6] } },
    comments: null,
    identified_by: null,
    trap_problem_bit: false,
    arthropods: [],
    lures: [],
    ...more,
  });

  it('is the same when every field left out is empty, stored empty or not listed at all', () => {
    expect(storedAsCreated('collection', body, stored())).toBe('same');
    expect(storedAsCreated('collection', body, { ...body, id: 7 })).toBe('same');
    expect(storedAsCreated('collection', body, stored({ comments: '' }))).toBe('same');
  });

  it('is different when the record holds anything the create left out', () => {
    for (const more of [
      { arthropods: [{ id: 3, species: 1, sex: 4, num_count: 50 }] },
      { comments: 'second CO2 trap, north bank' },
      { identified_by: 'J. Ortiz' },
      { trap_problem_bit: true },
      { lures: [{ id: 90, lure: 3 }] },
    ])
      expect(storedAsCreated('collection', body, stored(more)), JSON.stringify(more)).toBe(
        'different',
      );
    expect(storedAsCreated('poolTest', { pool: 1 }, { id: 2, pool: 1, value: 31.5 })).toBe(
      'different',
    );
    expect(storedAsCreated('site', { code: '104233' }, { code: '104233', city: 'Davis' })).toBe(
      'different',
    );
  });

  it('cannot tell when a field left out is listed in a shape it cannot read', () => {
    expect(storedAsCreated('collection', body, stored({ trap_problem_bit: 'N' }))).toBe('unknown');
    expect(storedAsCreated('collection', body, stored({ arthropods: 'see pools' }))).toBe(
      'unknown',
    );
  });
});
