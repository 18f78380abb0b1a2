import type { Transaction } from 'dexie';
import { ENTITY_TABLE, TraplineDb } from '../../src/client/db/database';
import { createSyncEngine, type SyncEngine } from '../../src/client/sync';
import type { Entity } from '../../src/shared';
import type { Rng } from './prng';

/** What the tablet did, as committed to its database (watched through Dexie hooks). */
export type TabletLog = {
  /** Outbox entries written (creates, edits, deletes, re-keyed fixes). */
  entries: number;
  /** Every server id stored on a record, in order: a create's acknowledgement. */
  acks: Array<{ entity: Entity; localId: string; serverId: number }>;
  /** Records removed from the tablet, with the server id they held. */
  removed: Array<{ entity: Entity; localId: string; serverId: number | null }>;
};

export type Tablet = {
  db: TraplineDb;
  engine: SyncEngine;
  log: TabletLog;
  /** The headers every request carries (cookie, origin), as of the last sign-in. */
  headers(): Record<string, string>;
  /** The session cookie every request carries (a browser's cookie jar): set after a sign-in. */
  setCookie(cookie: string): void;
  dispose(): Promise<void>;
};

export const ENGINE_TIMEOUT_MS = 5000;

/**
 * A headless tablet: the app's Dexie database on fake-indexeddb and the real sync engine, sending
 * to `edgeUrl` with the session cookie as the browser would. Backoff is short (base 50 ms, cap
 * 1 s) so a run settles in seconds; jitter comes from the seed.
 */
export function openTablet(name: string, edgeUrl: string, cookie: string, rng: Rng): Tablet {
  const db = new TraplineDb(name);
  const log: TabletLog = { entries: 0, acks: [], removed: [] };
  const committed = (trans: Transaction, fn: () => void) => trans.on('complete', fn);
  for (const entity of Object.keys(ENTITY_TABLE) as Entity[]) {
    const table = db.table(ENTITY_TABLE[entity]);
    table.hook('updating', (mods, localId, _row, trans) => {
      const serverId = (mods as { serverId?: unknown }).serverId;
      if (typeof serverId === 'number') {
        committed(trans, () => log.acks.push({ entity, localId: String(localId), serverId }));
      }
    });
    table.hook('deleting', (localId, row, trans) => {
      const { serverId } = row as { serverId: number | null };
      committed(trans, () => log.removed.push({ entity, localId: String(localId), serverId }));
    });
  }
  db.outbox.hook('creating', (_id, _entry, trans) => {
    committed(trans, () => {
      log.entries += 1;
    });
  });
  // The engine reads this object on every request: replacing the cookie here is what a browser's
  // cookie jar does after a new sign-in.
  const headers: Record<string, string> = {
    Cookie: cookie,
    Origin: edgeUrl,
    'Sec-Fetch-Site': 'same-origin',
  };
  const engine = createSyncEngine(db, {
    baseUrl: edgeUrl,
    headers,
    autoPull: false,
    channelName: null,
    lockName: `chaos-${name}`,
    backoff: { baseMs: 50, capMs: 1000 },
    timeoutMs: ENGINE_TIMEOUT_MS,
    random: () => rng.next(),
  });
  return {
    db,
    engine,
    log,
    headers: () => ({ ...headers }),
    setCookie(next) {
      headers.Cookie = next;
    },
    async dispose() {
      engine.stop();
      db.close();
      await db.delete();
    },
  };
}
