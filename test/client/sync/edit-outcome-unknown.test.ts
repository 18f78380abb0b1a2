import { describe, expect, it, vi } from 'vitest';
import { updateRecord } from '../../../src/client/db/update-record';
import { KEY_TRUSTED_FOR_MS } from '../../../src/shared';
import { collection, queueCreate, site, storeSynced } from './helpers/outbox-factory';
import type { Fault } from './helpers/fake-bff';
import { setupEngine } from './helpers/setup-engine';

/**
 * A create parked as create_outcome_unknown ("may already be on the server: check the
 * server's records before sending again") offers only Send again, after a warning that it may
 * make a second copy (parked-entries.tsx). The record's own form is still open to the technician,
 * and saving an edit there (a typo in the comments) goes through updateRecord, which treats every
 * parked create as refused: a new Idempotency-Key, sent at once, no warning. If the first request
 * did arrive, the server now holds the collection twice (same site, day, trap).
 */
const T0 = Date.UTC(2026, 6, 14, 6);

async function lostCreateParkedAsUnknown(by: 'bff' | 'tablet') {
  let now = T0;
  const { db, bff, engine } = setupEngine({
    now: () => now,
    concurrency: 1,
    // Only Sync now (or the clock) sends an entry again within the test.
    backoff: { baseMs: 3_600_000, capMs: 3_600_000 },
  });
  const host = bff.seed('site', site(1));
  const siteLocal = await storeSynced(db, 'site', host, site(1));
  const made = await queueCreate(db, 'collection', collection('2026-07-14'), siteLocal);

  // The first POST is applied on the server and its answer lost.
  let first = true;
  bff.fault = (req): Fault => {
    if (req.method !== 'POST') return null;
    if (first) {
      first = false;
      return 'drop-after';
    }
    // What the BFF answers when it cannot prove whether the lost create reached the upstream.
    return by === 'bff' && req.key === made.entryId
      ? { status: 409, code: 'create_outcome_unknown', message: 'May already be on the server' }
      : null;
  };
  engine.requestSync('manual');
  // Tried once (the answer lost), now backing off for an hour.
  await vi.waitFor(async () => {
    expect(engine.getStatus()).toMatchObject({ draining: false, sending: 0 });
    expect((await db.outbox.get(made.entryId))?.lastError).not.toBeNull();
  });
  expect(bff.all('collection')).toHaveLength(1);

  // The tablet's own rule: back in signal more than a day later.
  if (by === 'tablet') now += KEY_TRUSTED_FOR_MS + 60_000;
  engine.requestSync('manual');
  await engine.settled();
  expect(await db.outbox.get(made.entryId)).toMatchObject({
    state: 'parked',
    lastError: { body: { code: 'create_outcome_unknown' } },
  });
  expect(bff.all('collection')).toHaveLength(1);
  return { db, bff, engine, made };
}

describe('an edit of a create whose outcome is unknown', () => {
  it.each(['bff', 'tablet'] as const)(
    'does not send the collection again under a new key without Send again (parked by the %s)',
    async (by) => {
      const { db, bff, engine, made } = await lostCreateParkedAsUnknown(by);

      // The technician opens the collection and fixes the comment.
      const row = await db.collections.get(made.localId);
      await updateRecord(db, 'collection', made.localId, {
        ...row!.data,
        comments: 'Trap light was out',
      });
      engine.requestSync('manual');
      await engine.settled();

      // The server must not hold the same collection twice.
      expect(
        bff.all('collection').map((c) => ({ site: c.site, date: c.collection_date, trap: c.trap })),
      ).toHaveLength(1);
    },
  );
});
