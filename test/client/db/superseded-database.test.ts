import { afterEach, describe, expect, it } from 'vitest';
import { TraplineDb } from '../../../src/client/db/database';
import { createSite } from '../../../src/client/db/create-site';
import { makeDb, makeSite } from './factories';

/** What a newer app version does: open the database one Dexie version higher, add a table. */
function upgrade(name: string, version: number) {
  return new Promise<{ blocked: boolean }>((resolve, reject) => {
    let blocked = false;
    const open = indexedDB.open(name, version);
    open.onblocked = () => {
      blocked = true;
    };
    open.onupgradeneeded = () => open.result.createObjectStore('nextVersionTable');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      open.result.close();
      resolve({ blocked });
    };
  });
}

describe('a database superseded by a newer app in another tab', () => {
  let db: TraplineDb;
  afterEach(async () => {
    await db?.delete();
  });

  it('lets the upgrade through at once, stays closed, says so, and keeps what was queued', async () => {
    db = makeDb();
    const name = db.name;
    await createSite(db, makeSite());
    let told = 0;
    db.onSuperseded(() => (told += 1));

    expect(await upgrade(name, db.verno * 10 + 10)).toEqual({ blocked: false });
    expect(told).toBe(1);
    expect(db.superseded).toBe(true);
    // Old code never reopens it behind the technician's back.
    await expect(db.outbox.count()).rejects.toThrow(/closed/i);

    // The reloaded app (a new instance) opens the upgraded database; the entry is still there.
    db = new TraplineDb(name);
    expect(await db.outbox.count()).toBe(1);
    expect(db.superseded).toBe(false);
  });
});
