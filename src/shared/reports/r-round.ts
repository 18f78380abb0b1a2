/**
 * R's `round(x, digits)` as R ≥ 4.0.0 does it: to the decimal nearest the double's exact binary
 * value, an exact tie to even. So `rRound(0.15, 1)` is 0.1 (0.15 is stored as
 * 0.1499999999999999944…), `rRound(2.5)` is 2, `rRound(2.675, 2)` is 2.67 and
 * `rRound(1.00005, 4)` is 1.0001 (stored as 1.0000500000000000611…), where
 * `Math.round(x * 1e4) / 1e4` gives 1 because the product itself is rounded first.
 *
 * The double is split into its integer significand and power of two, and the scaled value is
 * divided exactly in BigInt; the result is the double nearest the rounded decimal (JavaScript's
 * decimal parsing is correctly rounded), which is what R returns and prints.
 */
const F64 = new Float64Array(1);
const BITS = new BigUint64Array(F64.buffer);
const FRACTION_MASK = (1n << 52n) - 1n;

export function rRound(x: number, digits = 0): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const negative = x < 0;
  F64[0] = negative ? -x : x;
  const bits = BITS[0];
  const biased = Number(bits >> 52n);
  // |x| = significand · 2^exponent exactly (subnormals have no hidden bit).
  const significand = biased === 0 ? bits & FRACTION_MASK : (bits & FRACTION_MASK) | (1n << 52n);
  const exponent = biased === 0 ? -1074 : biased - 1075;
  if (exponent >= 0 && digits >= 0) return x; // an integer already
  let num = significand;
  let den = 1n;
  if (digits >= 0) num *= 10n ** BigInt(digits);
  else den *= 10n ** BigInt(-digits);
  if (exponent >= 0) num <<= BigInt(exponent);
  else den <<= BigInt(-exponent);
  let q = num / den;
  const twiceRest = (num % den) * 2n;
  if (twiceRest > den || (twiceRest === den && (q & 1n) === 1n)) q += 1n;
  if (q === 0n) return 0; // never -0: R prints 0 and JSON has no -0
  const rounded = Number(`${q}e${-digits}`);
  return negative ? -rounded : rounded;
}
