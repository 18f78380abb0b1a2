import { compensatedSum } from './compensated-sum';

/**
 * Infection-rate estimators over pools, as vectorsurvR 1.6.3's `getInfectionRate` defines them
 * (its inner `mir`, `mle` and `bcmle`, which follow PooledInfRate's `pooledBin` Walter et al.
 * 1980 Newton–Raphson and Hepworth & Biggerstaff 2017's bias correction). Each pool row is one
 * (pool, test): `x` 1 when the test is Confirmed, else 0; `m` the pool's size.
 *
 * Results are per unit, not yet scaled: `{ p, lower, upper }`, the interval clamped to [0, 1].
 */
export interface PooledEstimate {
  p: number;
  lower: number;
  upper: number;
}

export const PT_ESTIMATES = ['bc-mle', 'mle', 'mir'] as const;
export type PtEstimate = (typeof PT_ESTIMATES)[number];

/**
 * R's `qnorm(1 - 0.05 / 2)`. The spec writes 1.959964; its reference intervals (0.04615398362,
 * 0.03747425212) are the ones this exact quantile gives, and 1.959964 would move the MLE's upper
 * bound by 2.4e-10 (2.4e-7 per thousand).
 */
export const Z_95 = 1.959963984540054;

/** Newton–Raphson stops when a step is below this (vectorsurvR's `tol = 1e-008`). */
const TOLERANCE = 1e-8;
/**
 * vectorsurvR loops until the step is small and never gives up; the iteration converges
 * quadratically within a few dozen steps on real pools, so a run this long means it diverged,
 * and the estimate is reported as missing rather than hanging the report.
 */
const MAX_ITERATIONS = 10_000;

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

/** Minimum infection rate: Σx / Σm with a Wald interval (vectorsurvR `mir`). */
export function mir(x: readonly number[], m: readonly number[]): PooledEstimate {
  const total = compensatedSum(m.length, (i) => m[i]);
  const p = compensatedSum(x.length, (i) => x[i]) / total;
  const se = Math.sqrt((p * (1 - p)) / total);
  return { p, lower: clamp01(p - Z_95 * se), upper: clamp01(p + Z_95 * se) };
}

/** Fisher information of the pooled binomial at p: Σ m²(1−p)^(m−2) / (1−(1−p)^m). */
function information(m: readonly number[], p: number): number {
  return compensatedSum(
    m.length,
    (i) => (m[i] ** 2 * (1 - p) ** (m[i] - 2)) / (1 - (1 - p) ** m[i]),
  );
}

function wald(p: number, se: number): PooledEstimate {
  return { p, lower: clamp01(p - Z_95 * se), upper: clamp01(p + Z_95 * se) };
}

/** The MLE point estimate, or why there is none (null when the iteration does not converge). */
function mlePoint(
  x: readonly number[],
  m: readonly number[],
): number | 'none-positive' | 'all-positive' | null {
  const k = x.length;
  const positives = compensatedSum(k, (i) => x[i]);
  if (positives === 0) return 'none-positive';
  if (positives === k) return 'all-positive';
  const n = compensatedSum(k, (i) => m[i]);
  let p = 1 - (1 - positives / k) ** (1 / (n / k)); // start: 1 − (1 − Σx/k)^(1/mean m)
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    const q = 1 - p;
    const score = n - compensatedSum(k, (i) => (m[i] * x[i]) / (1 - q ** m[i]));
    const slope = compensatedSum(
      k,
      (i) => (m[i] ** 2 * x[i] * q ** (m[i] - 1)) / (1 - q ** m[i]) ** 2,
    );
    const next = p - score / slope;
    if (!Number.isFinite(next)) return null;
    const step = Math.abs(next - p);
    p = next;
    if (step < TOLERANCE) return p;
  }
  return null;
}

/**
 * Maximum-likelihood estimate with a Wald interval (vectorsurvR `mle`). No positive pool gives
 * 0 with [0, 0]; every pool positive gives null (R's NA), as does a diverging iteration.
 */
export function mle(x: readonly number[], m: readonly number[]): PooledEstimate | null {
  const p = mlePoint(x, m);
  if (p === 'none-positive') return { p: 0, lower: 0, upper: 0 };
  if (p === 'all-positive' || p === null) return null;
  // vectorsurvR: SE 0 unless 0 < p̂ < 1.
  const se = p > 0 && p < 1 ? Math.sqrt(1 / information(m, p)) : 0;
  return wald(p, se);
}

/**
 * Bias-corrected MLE (vectorsurvR `bcmle`, the default): p̂ − ½·I(p̂)⁻²·Σ (m−1)m²(1−p̂)^(m−3) /
 * (1−(1−p̂)^m) when p̂ > 0, with the Wald SE taken at the corrected value (vectorsurvR computes
 * that SE with no 0 < p < 1 guard, and so does this). Same no-positive and all-positive cases as
 * `mle`.
 */
export function bcMle(x: readonly number[], m: readonly number[]): PooledEstimate | null {
  const p = mlePoint(x, m);
  if (p === 'none-positive') return { p: 0, lower: 0, upper: 0 };
  if (p === 'all-positive' || p === null) return null;
  let corrected = p;
  if (p > 0) {
    const skew = compensatedSum(
      m.length,
      (i) => ((m[i] - 1) * m[i] ** 2 * (1 - p) ** (m[i] - 3)) / (1 - (1 - p) ** m[i]),
    );
    corrected = p - (skew * (1 / information(m, p)) ** 2) / 2;
  }
  return wald(corrected, Math.sqrt(1 / information(m, corrected)));
}

/** The estimate `pt_estimate` names. */
export function pooledEstimate(
  estimator: PtEstimate,
  x: readonly number[],
  m: readonly number[],
): PooledEstimate | null {
  if (estimator === 'mir') return mir(x, m);
  return estimator === 'mle' ? mle(x, m) : bcMle(x, m);
}
