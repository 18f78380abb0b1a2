import { expect, vi } from 'vitest';
import { serverToData } from '../../../../src/client/db/field-values';
import type { TraplineDb } from '../../../../src/client/db/database';
import type { Fault } from './fake-bff';
import { collection, queueCreate, site, storeSynced } from './outbox-factory';
import { setupEngine } from './setup-engine';

/**
 * The window the fold tests start from: a synced site and a collection queued at it, whose create
 * the server applied and whose answer was lost; the drain is stopped, the tablet offline (every
 * request fails before it leaves) until `letThrough()`. `server` is the record the server holds.
 */
export async function createWithLostAnswer(concurrency: number) {
  const { db, bff, engine } = setupEngine({ concurrency });
  const host = bff.seed('site', site(1));
  const siteLocal = await storeSynced(db, 'site', host, site(1));
  const made = await queueCreate(db, 'collection', collection('2026-07-14'), siteLocal);

  let phase: 'first' | 'offline' | 'online' = 'first';
  bff.fault = (req): Fault => {
    if (phase === 'online') return null;
    if (phase === 'first' && req.method === 'POST') {
      phase = 'offline';
      return 'drop-after';
    }
    return 'drop-before';
  };
  engine.requestSync('test');
  await vi.waitFor(() => expect(phase).toBe('offline'));
  engine.stop();
  await engine.settled();
  const [server] = bff.all('collection');
  const letThrough = () => {
    phase = 'online';
  };
  return { db, bff, engine, siteLocal, made, server, letThrough };
}

/** What a pull stores for the collection the server has and the tablet knows by no server id. */
export const storePulledCopy = (
  db: TraplineDb,
  server: Record<string, unknown> & { id: number; updated: string },
  siteLocal: string,
) => storeSynced(db, 'collection', server, serverToData('collection', server), siteLocal);
