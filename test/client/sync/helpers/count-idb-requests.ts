import { onTestFinished } from 'vitest';

/**
 * What IndexedDB was asked, counted below Dexie (whoever asks: the drain, the status, a screen).
 * Transactions: countWriteTransactions (at Dexie's DBCore).
 */
export type IdbRequests = {
  /** Requests on object stores and indexes (get, put, delete, a cursor's first step, count...). */
  requests: number;
  /** Further steps of cursors (continue, advance): each is a request answered on its own. */
  cursorSteps: number;
  /** Requests by `store.method` (an index's as `store.index.method`). */
  byKind: Map<string, number>;
};

const REQUEST_METHODS = [
  'get',
  'getKey',
  'getAll',
  'getAllKeys',
  'count',
  'openCursor',
  'openKeyCursor',
  'put',
  'add',
  'delete',
  'clear',
] as const;

type Patched = { target: object; name: string; original: unknown };

/**
 * Counts IndexedDB requests from now until the test ends, by wrapping the
 * global IndexedDB classes (fake-indexeddb's under Node). This is the unit the browser's backend
 * pays for: Dexie's calls map onto it unevenly (a bulkUpdate is a read and a write, a `where`
 * with a filter a cursor step per row).
 */
export function countIdbRequests(): IdbRequests {
  const counts: IdbRequests = {
    requests: 0,
    cursorSteps: 0,
    byKind: new Map(),
  };
  const patched: Patched[] = [];
  const wrap = (target: object, name: string, wrapper: (original: never) => unknown) => {
    const original: unknown = Reflect.get(target, name);
    if (typeof original !== 'function') return;
    patched.push({ target, name, original });
    Reflect.set(target, name, wrapper(original as never));
  };
  const count = (kind: string) => {
    counts.requests += 1;
    counts.byKind.set(kind, (counts.byKind.get(kind) ?? 0) + 1);
  };
  for (const method of REQUEST_METHODS) {
    wrap(
      IDBObjectStore.prototype,
      method,
      (original: (...args: unknown[]) => unknown) =>
        function (this: IDBObjectStore, ...args: unknown[]) {
          count(`${this.name}.${method}`);
          return original.apply(this, args);
        },
    );
    wrap(
      IDBIndex.prototype,
      method,
      (original: (...args: unknown[]) => unknown) =>
        function (this: IDBIndex, ...args: unknown[]) {
          count(`${this.objectStore.name}.${this.name}.${method}`);
          return original.apply(this, args);
        },
    );
  }
  for (const method of ['continue', 'advance', 'continuePrimaryKey'])
    wrap(
      IDBCursor.prototype,
      method,
      (original: (...args: unknown[]) => unknown) =>
        function (this: IDBCursor, ...args: unknown[]) {
          counts.cursorSteps += 1;
          return original.apply(this, args);
        },
    );
  onTestFinished(() => {
    for (const { target, name, original } of patched.reverse()) Reflect.set(target, name, original);
  });
  return counts;
}
