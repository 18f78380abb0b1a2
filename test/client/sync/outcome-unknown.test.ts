import { describe, expect, it } from 'vitest';
import { sendParkedAgain } from '../../../src/client/db/update-record';
import { collection, pool, queueCreate, site } from './helpers/outbox-factory';
import { drain, setupEngine } from './helpers/setup-engine';

/** What the BFF answers when it cannot prove whether a lost create reached the upstream. */
const OUTCOME_UNKNOWN = {
  status: 409,
  code: 'create_outcome_unknown',
  message: 'This record may already be on the server: check before sending it again',
};
const TOLD = "May already be on the server: check the server's records before sending again";

describe('a create whose outcome the server cannot tell', () => {
  it('is parked with its dependents held and never retried; Send again sends it under a new key and its dependents follow', async () => {
    const { db, bff, engine } = setupEngine();
    const s = await queueCreate(db, 'site', site(1));
    const c = await queueCreate(db, 'collection', collection('2026-07-14'), s.localId);
    const p = await queueCreate(db, 'pool', pool(), c.localId);
    const other = await queueCreate(db, 'site', site(2));
    bff.fault = (req) => (req.key === s.entryId ? OUTCOME_UNKNOWN : null);

    await drain(engine);
    expect(await db.outbox.get(s.entryId)).toMatchObject({ state: 'parked' });
    expect(await db.sites.get(s.localId)).toMatchObject({
      serverId: null,
      syncState: 'failed',
      problem: { code: 'create_outcome_unknown', message: TOLD },
    });
    expect(engine.getStatus()).toMatchObject({ parked: 1, held: 2, pending: 0, sending: 0 });
    // The unrelated site went; nothing that depends on the parked one was sent.
    expect(bff.postsFor(other.entryId)).toBe(1);
    expect(bff.all('collection')).toEqual([]);
    expect(bff.all('pool')).toEqual([]);

    // Parked, not retrying: neither time nor Sync now sends it again with the same key.
    const asked = bff.requests.length;
    engine.requestSync('manual');
    await engine.settled();
    await new Promise((r) => setTimeout(r, 50));
    expect(bff.requests.length).toBe(asked);

    bff.fault = () => null;
    await sendParkedAgain(db, s.entryId);
    await drain(engine);

    const sitePosts = bff.requests.filter(
      (r) => r.method === 'POST' && r.entity === 'site' && r.key !== other.entryId,
    );
    expect(sitePosts).toHaveLength(2);
    expect(sitePosts[0].key).toBe(s.entryId);
    const newKey = sitePosts[1].key;
    expect(newKey).not.toBe(s.entryId);
    expect(sitePosts[1].body).toEqual(sitePosts[0].body);
    // The same record under the new key, then its collection and pool, in that order.
    expect(bff.applied).toEqual([other.entryId, newKey, c.entryId, p.entryId]);
    const serverSite = bff.all('site').find((r) => r.code === site(1).code)!;
    expect(bff.all('collection')[0].site).toBe(serverSite.id);
    expect(bff.all('pool')[0].collection).toBe(bff.all('collection')[0].id);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.sites.get(s.localId)).toMatchObject({
      serverId: serverSite.id,
      syncState: 'synced',
      problem: null,
    });
    expect(engine.getStatus()).toMatchObject({ parked: 0, held: 0, pending: 0 });
  });

  it('refuses to send again an entry that is not parked', async () => {
    const { db } = setupEngine();
    const s = await queueCreate(db, 'site', site(1));
    await expect(sendParkedAgain(db, s.entryId)).rejects.toThrow(/not waiting/);
    expect(await db.outbox.get(s.entryId)).toMatchObject({ state: 'pending' });
  });
});
