/**
 * Σ of doubles with Neumaier's compensation. R's `sum` accumulates in long double, so its sums
 * of many terms carry almost no rounding error; a compensated sum comes as close, where a plain
 * running sum drifts with the number of pools.
 */
export function compensatedSum(count: number, term: (i: number) => number): number {
  let sum = 0;
  let carry = 0;
  for (let i = 0; i < count; i++) {
    const v = term(i);
    const t = sum + v;
    carry += Math.abs(sum) >= Math.abs(v) ? sum - t + v : v - t + sum;
    sum = t;
  }
  return sum + carry;
}
