/**
 * How a test starts one of the project's TypeScript entry points as a process of its own: Node
 * itself with tsx as its loader, not the tsx binary (which runs the program in a grandchild: a
 * second Node start, ~0.1 s of CPU, and a PID that is not the program's).
 *
 * `--liftoff-only`: such a process lives seconds and does little database work, and V8's
 * optimising tier-up of PGlite's 9 MB of WebAssembly cost it more CPU than it saved: a start of
 * `src/server/main.ts` on a migrated data directory takes 3.6 CPU-s instead of 5.0 (and reaches
 * its banner 0.5 s sooner). Only the JIT tier changes, not what the program does. main.test.ts
 * starts `npm start`'s own command line without it, as a user does; the benches' servers, whose
 * speed is measured, keep the optimising tier. The chaos servers and the scale-out sample use it
 * too: they mostly wait (on faults, on a second of load), and cost less CPU this way, not more.
 */
export function nodeArgs(entry: string, ...args: string[]): string[] {
  return ['--liftoff-only', ...optimisingNodeArgs(entry, ...args)];
}

/** The same with V8's every tier: for a process whose speed is measured (the benches' servers). */
export function optimisingNodeArgs(entry: string, ...args: string[]): string[] {
  return ['--import', 'tsx', entry, ...args];
}
