/**
 * Microseconds this machine takes to hand a process one fresh 4 KiB page (its first touch),
 * the median of three 256 MiB rounds. A plain machine typically answers in a fraction of a
 * microsecond; a nested VM seen here took 12-17 µs, and there everything that allocates
 * (PGlite starting, scrypt, Chromium, a busy Node heap) is several times slower while pure
 * computation is not: the same commit's suite took 16 minutes there against 6 on the earlier
 * sessions' machine. Printed with the table so its ratios are read against their machine.
 */
export function freshPageMicros(): number {
  const bytes = 256 * 1024 * 1024;
  const page = 4096;
  const rounds: number[] = [];
  for (let round = 0; round < 3; round++) {
    const started = performance.now();
    // Zero-filled, so the allocator maps it lazily: each write below is a page's first touch.
    const memory = new Uint8Array(bytes);
    for (let offset = 0; offset < bytes; offset += page) memory[offset] = 1;
    rounds.push(((performance.now() - started) * 1000) / (bytes / page));
  }
  return rounds.sort((a, b) => a - b)[1];
}
