import { describe, expect, it } from 'vitest';
import {
  countBelowPooledMessage,
  exceedsCount,
  poolBuilderOverflowMessage,
  poolOverflowMessage,
  poolOverflows,
  pooledTotals,
} from '#shared/rules';

const rows = [
  { species: 1, sex: 1, num_count: 120 },
  { species: 2, sex: 1, num_count: 50 },
];

describe('pooled ≤ counted', () => {
  it('allows pools up to the count and refuses one more; no row counts as zero', () => {
    expect(exceedsCount(120, 120)).toBe(false);
    expect(exceedsCount(121, 120)).toBe(true);
    expect(exceedsCount(1, undefined)).toBe(true);
    expect(exceedsCount(0, undefined)).toBe(false);
  });

  it('sums the pools of each species and sex', () => {
    const totals = pooledTotals([
      { species: 1, sex: 1, num_count: 50 },
      { species: 2, sex: 1, num_count: 7 },
      { species: 1, sex: 1, num_count: 20 },
    ]);
    expect([...totals]).toEqual([
      ['1:1', 70],
      ['2:1', 7],
    ]);
  });

  it('lists every species and sex over its count, in the order the pools name them', () => {
    const overflows = poolOverflows(
      [
        { species: 3, sex: 2, num_count: 1 },
        { species: 1, sex: 1, num_count: 100 },
        { species: 2, sex: 1, num_count: 50 },
        { species: 1, sex: 1, num_count: 21 },
      ],
      rows,
    );
    expect(overflows).toEqual([
      { species: 3, sex: 2, pooled: 1, counted: 0 },
      { species: 1, sex: 1, pooled: 121, counted: 120 },
    ]);
  });

  it('words the problem for the service, the pool builder and the collection form', () => {
    expect(poolOverflowMessage({ pooled: 121, counted: 120 })).toBe(
      'Pools would hold 121 but the collection counted only 120 of this species and sex; lower the pool count or correct the collection',
    );
    expect(poolOverflowMessage({ pooled: 1, counted: 0 })).toBe(
      "The collection has no count for this species and sex; add it to the collection's arthropods before pooling",
    );
    expect(poolBuilderOverflowMessage({ pooled: 130, counted: 120 }, 'Cx tarsalis F-Gravid')).toBe(
      'Only 120 Cx tarsalis F-Gravid were counted: these pools would hold 130',
    );
    expect(poolBuilderOverflowMessage({ pooled: 1, counted: 0 }, 'Cx tarsalis Male')).toBe(
      'No Cx tarsalis Male were counted in this collection',
    );
    expect(countBelowPooledMessage(30, 'Cx tarsalis F-Gravid', false)).toBe(
      '30 Cx tarsalis F-Gravid are already in pools: the count cannot be lower than 30',
    );
    expect(countBelowPooledMessage(30, 'Cx tarsalis F-Gravid', true)).toBe(
      '30 Cx tarsalis F-Gravid are already in pools: keep their row with a count of at least 30, or remove those pools first',
    );
  });
});
