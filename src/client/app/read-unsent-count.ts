/** Give up on reading after this long (a blocked or very slow storage): the count is optional. */
const READ_TIMEOUT_MS = 3_000;

/**
 * How many entries wait in the outbox of the database `name`, read with plain IndexedDB so that
 * nothing is ever written: opened without a version (no upgrade, no version change for other
 * tabs), a read-only transaction, closed at once. A database that does not exist is not created
 * (its creation is aborted): nothing waits. Null when it could not be read.
 */
export function readUnsentCount(name: string): Promise<number | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), READ_TIMEOUT_MS);
    const done = (count: number | null) => {
      clearTimeout(timer);
      resolve(count);
    };
    let missing = false;
    let request: IDBOpenDBRequest;
    try {
      request = indexedDB.open(name);
    } catch {
      done(null);
      return;
    }
    request.onupgradeneeded = () => {
      // Only a database that does not exist yet gets here (no version was asked for).
      missing = true;
      request.transaction?.abort();
    };
    request.onerror = (event) => {
      event.preventDefault();
      done(missing ? 0 : null);
    };
    request.onsuccess = () => {
      const db = request.result;
      db.onversionchange = () => db.close();
      if (!db.objectStoreNames.contains('outbox')) {
        db.close();
        done(0);
        return;
      }
      try {
        const count = db.transaction('outbox', 'readonly').objectStore('outbox').count();
        count.onsuccess = () => done(count.result);
        count.onerror = (event) => {
          event.preventDefault();
          done(null);
        };
      } catch {
        done(null);
      } finally {
        // Closes once the read transaction has finished.
        db.close();
      }
    };
  });
}
