/**
 * Stores rows in batches as they arrive (a group commit): while one batch is being stored, the
 * rows that arrive wait; once it is stored, everything waiting goes in the next batch (up to
 * `maxBatch`). Batches are stored one at a time, in the order their rows arrived.
 *
 * Why: rows are stored as soon as the store is free, so a slow page never holds back the rows
 * before it, and when the last rows arrive only they (and what arrived during the batch before)
 * are left to store. A slow store makes batches larger by itself, which keeps the commits, and
 * the re-reads they cause in live queries on the table, few.
 */
export type BatchWriter<R> = {
  /**
   * Adds rows to store. Resolves at once, unless `maxBatch` rows already wait behind the batch
   * being stored (then once they are on their way: what is held stays bounded). Rejects with a
   * failed batch's error; nothing is stored after a failure.
   */
  add(rows: readonly R[]): Promise<void>;
  /** Resolves once every row added is stored; rejects with a failed batch's error. */
  flushed(): Promise<void>;
};

export function batchesAsTheyArrive<R>(
  store: (rows: R[]) => Promise<void>,
  maxBatch: number,
): BatchWriter<R> {
  let waiting: R[] = [];
  let current: Promise<void> | null = null;
  let failure: { error: unknown } | null = null;

  const storeWaiting = () => {
    if (current || failure || waiting.length === 0) return;
    const rows = waiting.splice(0, maxBatch);
    // Settles only once the next batch (if rows wait) has started: `current` is never null while
    // rows wait and nothing failed.
    current = store(rows).then(
      () => {
        current = null;
        storeWaiting();
      },
      (error: unknown) => {
        current = null;
        failure = { error };
        waiting = [];
      },
    );
  };

  const failed = () => {
    if (failure) throw failure.error;
  };

  return {
    async add(rows) {
      failed();
      for (const row of rows) waiting.push(row);
      storeWaiting();
      while (current && waiting.length >= maxBatch) await current;
      failed();
    },
    async flushed() {
      while (current) await current;
      failed();
    },
  };
}
