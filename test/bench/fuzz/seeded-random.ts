import fc from 'fast-check';

/**
 * A seeded source of choices (mulberry32): the same seed gives the same sequence of requests,
 * so a failing run is replayed with `--seed`. fast-check arbitraries are sampled from it too
 * (each sample seeded from this sequence), for the unicode and JSON values it knows how to make.
 */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Picks by weight: `[[weight, value], …]`. */
  weighted<T>(items: ReadonlyArray<readonly [number, T]>): T {
    const total = items.reduce((s, [w]) => s + w, 0);
    let r = this.next() * total;
    for (const [w, v] of items) {
      r -= w;
      if (r < 0) return v;
    }
    return items[items.length - 1][1];
  }

  /** A few distinct items, in random order. */
  some<T>(items: readonly T[], max = 3): T[] {
    const n = this.int(0, Math.min(max, items.length));
    const pool = [...items];
    const out: T[] = [];
    for (let i = 0; i < n; i++) out.push(pool.splice(this.int(0, pool.length - 1), 1)[0]);
    return out;
  }

  /** One value of a fast-check arbitrary, seeded from this sequence. */
  sample<T>(arb: fc.Arbitrary<T>): T {
    return fc.sample(arb, { seed: this.int(0, 0x7fffffff), numRuns: 1 })[0];
  }
}
