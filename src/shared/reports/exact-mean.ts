/**
 * The arithmetic mean of finite doubles, correctly rounded: the sum is taken exactly (BigInt over
 * a common power of two) and divided once. R's `mean` sums in long double and then corrects by a
 * second pass, which on the few values of a five-year average gives this same double; a plain
 * `sum / n` can be one unit in the last place off, and that can move a 4-decimal rounding of a
 * ratio built on the mean (the anomaly's Delta). Null for no values.
 */
const F64 = new Float64Array(1);
const BITS = new BigUint64Array(F64.buffer);
const FRACTION_MASK = (1n << 52n) - 1n;

function split(x: number): { sig: bigint; exp: number } {
  F64[0] = Math.abs(x);
  const bits = BITS[0];
  const biased = Number(bits >> 52n);
  const sig = biased === 0 ? bits & FRACTION_MASK : (bits & FRACTION_MASK) | (1n << 52n);
  return { sig: x < 0 ? -sig : sig, exp: biased === 0 ? -1074 : biased - 1075 };
}

export function exactMean(values: readonly number[]): number | null {
  const n = values.length;
  if (n === 0) return null;
  if (values.some((v) => !Number.isFinite(v))) return values.reduce((s, v) => s + v, 0) / n;
  const parts = values.map(split);
  const minExp = Math.min(...parts.map((p) => p.exp));
  let total = 0n;
  for (const p of parts) total += p.sig << BigInt(p.exp - minExp);
  if (total === 0n) return 0;
  const negative = total < 0n;
  const magnitude = negative ? -total : total;
  // Keep at least 64 quotient bits plus a sticky bit for the remainder, so that converting the
  // quotient to a double (round to nearest, ties to even) rounds the exact mean once.
  const divisor = BigInt(n);
  const shift = Math.max(0, 66 - magnitude.toString(2).length + divisor.toString(2).length);
  const scaled = magnitude << BigInt(shift);
  const quotient = ((scaled / divisor) << 1n) | (scaled % divisor === 0n ? 0n : 1n);
  let result = Number(quotient);
  let exp = minExp - shift - 1;
  while (exp < -1000) {
    result *= 2 ** -1000;
    exp += 1000;
  }
  result *= 2 ** exp;
  return negative ? -result : result;
}
