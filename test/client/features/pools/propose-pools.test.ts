import { describe, expect, it } from 'vitest';
import { checkPools, proposePools } from '../../../../src/client/features/pools/propose-pools';

const rows = [
  { species: 1, sex: 1, num_count: 120 },
  { species: 2, sex: 1, num_count: 50 },
  { species: 3, sex: 2, num_count: 0 },
];
const describe_ = (species: number, sex: number) => `species ${species} sex ${sex}`;

describe('pool proposal', () => {
  it('splits each species and sex into pools of at most 50, full pools first', () => {
    expect(proposePools(rows)).toEqual([
      { species: 1, sex: 1, num_count: 50 },
      { species: 1, sex: 1, num_count: 50 },
      { species: 1, sex: 1, num_count: 20 },
      { species: 2, sex: 1, num_count: 50 },
    ]);
  });

  it('proposes only what existing pools have not taken', () => {
    expect(
      proposePools(rows, [
        { species: 1, sex: 1, num_count: 100 },
        { species: 2, sex: 1, num_count: 50 },
      ]),
    ).toEqual([{ species: 1, sex: 1, num_count: 20 }]);
  });

  it('never proposes more than the abundance row, whatever the size limit', () => {
    for (const max of [1, 7, 50, 500]) {
      const pools = proposePools(rows, [], max);
      expect(pools.every((p) => p.num_count >= 1 && p.num_count <= max)).toBe(true);
      expect(pools.filter((p) => p.species === 1).reduce((s, p) => s + p.num_count, 0)).toBe(120);
    }
  });

  it('flags edited pools that exceed the abundance row or the pool size', () => {
    const problems = checkPools(
      [
        { species: 1, sex: 1, num_count: 50 },
        { species: 1, sex: 1, num_count: 60 },
        { species: 1, sex: 1, num_count: 20 },
        { species: 4, sex: 1, num_count: 1 },
      ],
      rows,
      [],
      describe_,
    );
    expect(problems).toEqual([
      { index: 1, message: 'A pool holds at most 50' },
      { index: 2, message: 'Only 120 species 1 sex 1 were counted: these pools would hold 130' },
      { index: 3, message: 'No species 4 sex 1 were counted in this collection' },
    ]);
  });

  it('counts pools already saved against the abundance row', () => {
    expect(
      checkPools(
        [{ species: 2, sex: 1, num_count: 1 }],
        rows,
        [{ species: 2, sex: 1, num_count: 50 }],
        describe_,
      ),
    ).toEqual([
      { index: 0, message: 'Only 50 species 2 sex 1 were counted: these pools would hold 51' },
    ]);
  });
});
