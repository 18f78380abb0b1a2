import { describe, expect, it } from 'vitest';
import { mixedConditionConflicts } from '#shared/rules';

const sexes = [
  { id: 1, name: 'F-Mixed' },
  { id: 2, name: 'F-Gravid' },
  { id: 3, name: 'Male' },
  { id: 4, name: 'F-Unfed' },
];

describe('F-Mixed rule', () => {
  it('flags each specific female condition counted beside F-Mixed for the same species', () => {
    const errors = mixedConditionConflicts(
      [
        { species: 7, sex: 1 },
        { species: 7, sex: 2 },
        { species: 7, sex: 3 },
        { species: 7, sex: 4 },
      ],
      sexes,
    );
    expect(errors).toEqual([
      {
        path: 'arthropods.1.sex',
        message:
          'F-Gravid cannot be combined with F-Mixed for the same species; count them all as F-Mixed or split every female by condition',
      },
      {
        path: 'arthropods.3.sex',
        message:
          'F-Unfed cannot be combined with F-Mixed for the same species; count them all as F-Mixed or split every female by condition',
      },
    ]);
  });

  it('lets one species be F-Mixed and another split by condition', () => {
    const rows = [
      { species: 7, sex: 1 },
      { species: 8, sex: 2 },
      { species: 8, sex: 4 },
      { species: 7, sex: 3 },
    ];
    expect(mixedConditionConflicts(rows, sexes)).toEqual([]);
  });

  it('says nothing of rows whose sex is not in the lookup', () => {
    expect(mixedConditionConflicts([{ species: 7, sex: 99 }], sexes)).toEqual([]);
  });
});
