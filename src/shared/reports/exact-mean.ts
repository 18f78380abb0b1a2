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

const bitLength = (v: bigint) => v.toString(2).length;

export function exactMean(values: readonly number[]): number | null {
  const n = values.length;
  if (n === 0) return null;
  if (values.some((v) => !Number.isFinite(v))) return values.reduce((s, v) => s + v, 0) / n;
  const parts = values.filter((v) => v !== 0).map(split); // 0 adds nothing, and has no exponent
  if (parts.length === 0) return 0;
  const minExp = Math.min(...parts.map((p) => p.exp));
  let total = 0n;
  for (const p of parts) total += p.sig << BigInt(p.exp - minExp);
  if (total === 0n) return 0;
  const negative = total < 0n;
  const magnitude = negative ? -total : total;
  // Divide with at least 66 quotient bits, then keep the top 64 and a sticky bit for whatever
  // is left over, so that converting to a double (to nearest, ties to even) rounds the exact
  // mean once.
  const divisor = BigInt(n);
  const shift = Math.max(0, 66 - bitLength(magnitude) + bitLength(divisor));
  const scaled = magnitude << BigInt(shift);
  let quotient = scaled / divisor;
  let sticky = scaled % divisor !== 0n;
  let exp = minExp - shift;
  const extra = bitLength(quotient) - 64;
  if (extra > 0) {
    sticky ||= (quotient & ((1n << BigInt(extra)) - 1n)) !== 0n;
    quotient >>= BigInt(extra);
    exp += extra;
  }
  let result = Number((quotient << 1n) | (sticky ? 1n : 0n));
  exp -= 1;
  while (exp < -1000) {
    result *= 2 ** -1000;
    exp += 1000;
  }
  result *= 2 ** exp;
  return negative ? -result : result;
}
