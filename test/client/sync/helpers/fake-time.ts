import { vi } from 'vitest';

/**
 * Waiting for the engine on Vitest's fake timers. IndexedDB here (fake-indexeddb) runs on the
 * real setImmediate, which the tests leave unfaked: after fake time moves, the engine's reads and
 * writes still need turns of the real event loop.
 */

/** Lets IndexedDB and promises settle. */
export async function settleIo(rounds = 30) {
  for (let i = 0; i < rounds; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** Runs fake time forward by `ms`, letting the engine's IndexedDB work finish after it. */
export async function pass(ms: number) {
  await vi.advanceTimersByTimeAsync(ms);
  await settleIo();
}

/** Lets the engine's work at this fake time finish until `done` holds (a hang guard, no timing). */
export async function until(done: () => boolean | Promise<boolean>, rounds = 50) {
  for (let i = 0; i < rounds && !(await done()); i += 1) await pass(0);
}
