import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bcMle, mir, mle, Z_95 } from '#shared/reports';

// PooledInfRate's classic example (spec reference values): one positive pool of 50, negative
// pools of 25, 10 and 5.
const x = [1, 0, 0, 0];
const m = [50, 25, 10, 5];

describe('pooled infection-rate estimators', () => {
  it("give the spec's reference values", () => {
    const e = mle(x, m)!;
    expect(e.p).toBeCloseTo(0.01608779092, 10);
    expect(e.lower).toBe(0);
    expect(e.upper).toBeCloseTo(0.04615398362, 10);
    const b = bcMle(x, m)!;
    expect(b.p).toBeCloseTo(0.01218403436, 10);
    expect(b.lower).toBe(0);
    expect(b.upper).toBeCloseTo(0.03747425212, 10);
    expect(mir(x, m).p).toBeCloseTo(0.01111111111, 10);
  });

  it('uses qnorm(0.975), not 1.959964: the reference upper bound needs the exact quantile', () => {
    // With 1.959964 the MLE's upper bound would be 0.0461539839 (2.4e-10 off the reference).
    expect(Z_95).toBe(1.959963984540054);
  });

  it('MIR by hand: Σx / Σm with a Wald interval clamped to [0, 1]', () => {
    // p = 1/90; SE = √(p(1−p)/90) = √((1/90)(89/90)/90) = √(89/729000) ≈ 0.0110493;
    // lower = 1/90 − 1.96·0.011 < 0 → 0; upper = 1/90 + z·√(89/729000) ≈ 0.011111 + 0.021656 = 0.032767.
    const e = mir(x, m);
    expect(e.p).toBe(1 / 90);
    expect(e.lower).toBe(0);
    expect(e.upper).toBeCloseTo(1 / 90 + 1.959963984540054 * Math.sqrt(89 / 729000), 14);
    expect(e.upper).toBeCloseTo(0.032767, 6);
  });

  it('MLE by hand for equal pools: the closed form 1 − (1 − positives/k)^(1/m)', () => {
    // Two pools of 10, one positive: p̂ = 1 − 0.5^(1/10) ≈ 0.0669670. At p̂, (1−p̂)^10 = 0.5, so
    // each pool's information term is 10²·(1−p̂)^8 / 0.5 = 200·0.5^0.8 ≈ 114.870, SE =
    // (2·200·0.5^0.8)^(−½) ≈ 0.0659757.
    const e = mle([1, 0], [10, 10])!;
    const p = 1 - 0.5 ** 0.1;
    const se = (400 * 0.5 ** 0.8) ** -0.5;
    expect(e.p).toBeCloseTo(p, 12);
    expect(e.upper).toBeCloseTo(p + 1.959963984540054 * se, 10);
    expect(e.lower).toBe(0); // 0.067 − 1.96·0.066 < 0
  });

  it('gives 0 with [0, 0] when no pool is positive, for every estimator', () => {
    for (const f of [mle, bcMle, mir]) {
      expect(f([0, 0, 0], [10, 20, 5])).toEqual({ p: 0, lower: 0, upper: 0 });
    }
  });

  it('has no MLE or BC-MLE when every pool is positive, but still a MIR', () => {
    expect(mle([1, 1], [5, 10])).toBeNull();
    expect(bcMle([1, 1], [5, 10])).toBeNull();
    // MIR = 2/15; SE = √((2/15)(13/15)/15) = √(26/3375) ≈ 0.087771; lower 0.1333 − 0.1720 → 0.
    const e = mir([1, 1], [5, 10]);
    expect(e.p).toBe(2 / 15);
    expect(e.lower).toBe(0);
    expect(e.upper).toBeCloseTo(2 / 15 + 1.959963984540054 * Math.sqrt(26 / 3375), 14);
  });

  const pools = fc
    .array(fc.tuple(fc.integer({ min: 0, max: 1 }), fc.integer({ min: 1, max: 60 })), {
      minLength: 1,
      maxLength: 40,
    })
    .map((ps) => ({ x: ps.map((p) => p[0]), m: ps.map((p) => p[1]) }));

  it('keeps lower CI ≤ rate ≤ upper CI within [0, 1] for MLE and MIR', () => {
    fc.assert(
      fc.property(pools, ({ x, m }) => {
        for (const e of [mle(x, m), mir(x, m)]) {
          if (e === null) continue;
          expect(e.lower).toBeGreaterThanOrEqual(0);
          expect(e.lower).toBeLessThanOrEqual(e.p);
          expect(e.p).toBeLessThanOrEqual(e.upper);
          expect(e.upper).toBeLessThanOrEqual(1);
        }
      }),
    );
  });

  it('keeps lower CI ≤ rate ≤ upper CI for BC-MLE wherever its interval exists', () => {
    // vectorsurvR's correction can push small samples below 0 (reference case vi_week_species
    // has −126 per 1000 with no interval: the SE at a negative p is NaN in R too).
    fc.assert(
      fc.property(pools, ({ x, m }) => {
        const e = bcMle(x, m);
        if (e === null || Number.isNaN(e.lower)) return;
        expect(e.lower).toBeLessThanOrEqual(Math.max(e.p, 0));
        expect(e.p).toBeLessThanOrEqual(e.upper);
      }),
    );
  });

  it('gives MIR 0 exactly when no pool is positive, and null MLE exactly when all are', () => {
    fc.assert(
      fc.property(pools, ({ x, m }) => {
        const positives = x.filter((v) => v === 1).length;
        expect(mir(x, m).p === 0).toBe(positives === 0);
        expect(mle(x, m) === null).toBe(positives === x.length && positives > 0);
      }),
    );
  });

  it('puts the MLE between the MIR and the fraction of positive pools', () => {
    // Each positive pool holds at least one infected: p̂ ≥ Σx/Σm; no pool of size ≥ 1 is more
    // likely positive than the fraction of positive pools at m = 1.
    fc.assert(
      fc.property(pools, ({ x, m }) => {
        const e = mle(x, m);
        if (e === null || e.p === 0) return;
        expect(e.p).toBeGreaterThanOrEqual(mir(x, m).p - 1e-12);
        expect(e.p).toBeLessThanOrEqual(x.filter((v) => v === 1).length / x.length + 1e-12);
      }),
    );
  });
});
