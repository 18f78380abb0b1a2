import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rRound } from '#shared/reports';

describe('rRound gives what R 4.2.2 round() gives', () => {
  it("rounds the spec's cases as R does", () => {
    expect(rRound(0.15, 1)).toBe(0.1);
    expect(rRound(2.5)).toBe(2);
    expect(rRound(2.675, 2)).toBe(2.67);
    expect(rRound(1.00005, 4)).toBe(1.0001);
    // Where the naive rounding differs: 0.15 × 10 is 1.5 exactly after the product's rounding.
    expect(Math.round(0.15 * 10) / 10).toBe(0.2);
    expect(Math.round(2.5)).toBe(3);
  });

  it('compares the two double candidates, not the exact decimal (values printed by R 4.2.2)', () => {
    // 0.45 is stored as 0.45000000000000001110, nearer 0.5 than 0.4, but R takes 0.4: both
    // double differences 0.5 − x and x − 0.4 are 0.04999999999999998890, a tie, kept even.
    expect(rRound(0.45, 1)).toBe(0.4);
    expect(rRound(-0.45, 1)).toBe(-0.4);
    // An abundance: 77 caught over 160 trap nights. R gives 0.4812, the nearest decimal 0.4813.
    expect(rRound(77 / 160, 4)).toBe(0.4812);
    expect(rRound(-77 / 160, 4)).toBe(-0.4812);
    expect(rRound(1 / 32, 4)).toBe(0.0312);
    expect(rRound(5 / 16, 3)).toBe(0.312);
    expect(rRound(2.345, 2)).toBe(2.35);
    expect(rRound(0.285, 2)).toBe(0.28);
    expect(rRound(1 / 3, 4)).toBe(0.3333);
  });

  it('rounds half to even with no digits', () => {
    expect(rRound(0.5)).toBe(0);
    expect(rRound(1.5)).toBe(2);
    expect(rRound(-1.5)).toBe(-2);
    expect(rRound(-0.4)).toBe(0);
    expect(Object.is(rRound(-0.00001, 4), 0)).toBe(true); // no -0 in a report
  });

  it('passes through what R passes through', () => {
    expect(rRound(Number.NaN, 4)).toBeNaN();
    expect(rRound(Infinity, 4)).toBe(Infinity);
    expect(rRound(123456789.123456, 10)).toBe(123456789.123456); // beyond 15 digits: unchanged
    expect(rRound(1234, -2)).toBe(1200);
  });

  it('is within half a unit of the last digit, idempotent and odd-symmetric', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        fc.integer({ min: 0, max: 6 }),
        (x, d) => {
          const r = rRound(x, d);
          expect(Math.abs(r - x)).toBeLessThanOrEqual(0.5 * 10 ** -d * (1 + 1e-9) + 1e-9);
          expect(rRound(r, d)).toBe(r);
          expect(rRound(-x, d)).toBe(r === 0 ? 0 : -r);
        },
      ),
    );
  });
});
