import Dexie, { type Table } from 'dexie';
import { SNAPSHOT_FORMAT, type SiteIndexSnapshot } from './indexed-sites';

/**
 * Where the site index keeps what the map and the Sites list showed (SiteIndexSnapshot), for the
 * next visit's first opening: a database of its own beside the user's (whose schema the app's
 * TraplineDb owns), one row. A cache: what it holds is shown only until the sites as stored are
 * read, and removing the user's data removes it too (removeTabletData).
 */
export const snapshotDbName = (dbName: string) => `${dbName}-site-index`;

const KEY = 'sites';

class SnapshotDb extends Dexie {
  snapshot!: Table<SiteIndexSnapshot, string>;
  constructor(name: string) {
    super(name);
    this.version(1).stores({ snapshot: '' });
  }
}

/** The snapshot kept for `dbName`, or null (none, another format, or unreadable). */
export async function readSnapshot(dbName: string): Promise<SiteIndexSnapshot | null> {
  // Opened as stored, with no schema (one open, on the Sites screen's first opening): a database
  // that is not there is not made by looking, and a tablet whose storage was cleared keeps none.
  const db = new Dexie(snapshotDbName(dbName));
  try {
    await db.open();
    // There, but empty (made by something else that looked, or its making cut short): none.
    if (!db.tables.some((t) => t.name === 'snapshot')) return null;
    const snapshot = await db.table<SiteIndexSnapshot, string>('snapshot').get(KEY);
    return snapshot?.format === SNAPSHOT_FORMAT ? snapshot : null;
  } catch (err) {
    if (err instanceof Dexie.NoSuchDatabaseError) return null;
    throw err;
  } finally {
    db.close();
  }
}

/**
 * Whether a snapshot database of `dbName` is there (not its content): asked without opening it,
 * so without making it.
 */
export function snapshotKept(dbName: string): Promise<boolean> {
  return Dexie.exists(snapshotDbName(dbName));
}

/** Keeps `snapshot` for `dbName`'s next visit, in place of the one kept before. */
export async function writeSnapshot(dbName: string, snapshot: SiteIndexSnapshot): Promise<void> {
  // The user's data removed meanwhile (or the tablet's storage cleared): nothing is kept of it.
  if (!(await Dexie.exists(dbName))) return;
  const db = new SnapshotDb(snapshotDbName(dbName));
  try {
    await db.snapshot.put(snapshot, KEY);
  } finally {
    db.close();
  }
}

/** Forgets `dbName`'s snapshot (its user's data removed from the tablet). */
export function deleteSnapshot(dbName: string): Promise<void> {
  return Dexie.delete(snapshotDbName(dbName));
}
