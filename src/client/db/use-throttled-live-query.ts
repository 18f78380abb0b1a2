import Dexie, { type ObservabilitySet } from 'dexie';
import { useEffect, useRef, useState } from 'react';
import { writesTo } from '../lib/storage-mutations';
import type { TraplineDb } from './database';

/**
 * A live read of tables that a drain changes with every answer (the whole outbox): run at once,
 * then again after any change to `tables`, in this tab or another, at most once every `everyMs`.
 * The last change is always followed by a run, so what shows is never more than `everyMs` (and
 * one read) behind what is stored.
 *
 * Dexie's useLiveQuery runs its query again after every write that touches what it read: a read
 * of the whole outbox on a screen left open ran back to back while a week's queue drained, each
 * read one long task and all of them taken from the drain's share of the tablet's cores.
 *
 * `key` names everything the querier depends on (as a useEffect dependency list would): a new key
 * reads again at once, the last answer showing until that read lands. The querier of the latest
 * render is the one run. Undefined until the first read; a failed read is thrown at render, as
 * useLiveQuery does, for the screen's error boundary.
 */
export function useThrottledLiveQuery<T>(
  db: TraplineDb,
  tables: readonly string[],
  querier: () => Promise<T>,
  key: string,
  everyMs: number,
): T | undefined {
  const [state, setState] = useState<{ value: T } | { error: unknown } | null>(null);
  const latest = useRef(querier);
  latest.current = querier;
  const tableList = tables.join(',');

  useEffect(() => {
    let live = true;
    let running = false;
    let dirty = false;
    let lastRun = -Infinity;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const watched = tableList.split(',');

    const run = async () => {
      timer = null;
      running = true;
      dirty = false;
      lastRun = Date.now();
      try {
        const value = await latest.current();
        if (live) setState({ value });
      } catch (error) {
        if (live) setState({ error });
      } finally {
        running = false;
        if (live && dirty) schedule();
      }
    };
    const schedule = () => {
      dirty = true;
      if (running || timer) return;
      timer = setTimeout(() => void run(), Math.max(0, lastRun + everyMs - Date.now()));
    };
    const onMutated = (parts: ObservabilitySet) => {
      if (writesTo(parts, db.name, watched)) schedule();
    };
    Dexie.on('storagemutated', onMutated);
    void run();
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
      Dexie.on.storagemutated.unsubscribe(onMutated);
    };
  }, [db, tableList, key, everyMs]);

  if (state && 'error' in state) throw state.error;
  return state?.value;
}
