import { expect, vi } from 'vitest';
import type { TraplineDb } from '../../../../src/client/db/database';
import type { SyncEngine, SyncStatus } from '../../../../src/client/sync';
import type { FakeBff } from './fake-bff';
import { collection, pool, queueCreate, site } from './outbox-factory';

/**
 * The queue of the tablet trial: a new site the server refuses (its code is taken), a
 * collection and a pool made at it (held behind it), and an unrelated site that cannot reach
 * the server yet (its send fails before the server sees it). Four changes not on the server:
 * 1 needs attention, 2 wait on it, 1 waits for the network.
 */
export async function queueRefusedWithDependents(db: TraplineDb, bff: FakeBff) {
  const refused = await queueCreate(db, 'site', site(1));
  const held = await queueCreate(db, 'collection', collection('2026-07-14'), refused.localId);
  const heldPool = await queueCreate(db, 'pool', pool(), held.localId);
  const unrelated = await queueCreate(db, 'site', site(2));
  bff.fault = (req) => {
    if (req.key === refused.entryId)
      return {
        status: 409,
        code: 'site_code_taken',
        message: "Site code 100001 is already used by 'Putah Creek N' — pick another code",
      };
    if (req.key === unrelated.entryId) return 'drop-before';
    return null;
  };
  return { refused, held, heldPool, unrelated };
}

/**
 * Waits until the engine has finished its drain with these counts (entries backing off for a
 * minute keep settled() waiting, so the tests wait on the status itself; generous for a busy machine).
 */
export async function untilStatus(engine: SyncEngine, expected: Partial<SyncStatus>) {
  await vi.waitFor(
    () => expect(engine.getStatus()).toMatchObject({ draining: false, ...expected }),
    // 10 s ran out once with the whole suite on two cores (17 entries still pending): a hang is
    // still caught, well inside the test's own limit.
    { timeout: 25_000 },
  );
}

/** The counts of queueRefusedWithDependents once drained. */
export const REFUSED_WITH_DEPENDENTS = { pending: 1, sending: 0, parked: 1, held: 2, conflict: 0 };
