import { describe, expect, it } from 'vitest';
import type { HistoryRow } from '../../../../src/shared/schemas/history';
import { describeChanges } from '../../../../src/client/features/history/describe-changes';
import { historyCsv } from '../../../../src/client/features/history/history-csv';
import { LOOKUPS } from '../../lookups-fixture';

const row = (over: Partial<HistoryRow>): HistoryRow => ({
  id: 1,
  at: '2026-07-15T16:20:00.000Z',
  user: { id: 2, full_name: 'Demo Manager' },
  action: 'update',
  entity: 'collection',
  record: 12,
  changes: {},
  ...over,
});

const tarsalisMixed = { species: 1, sex: 4 };

describe('a history row in words', () => {
  it('names a changed count by species and sex, before → after', () => {
    const words = describeChanges(
      row({
        changes: {
          arthropods: [
            [
              { ...tarsalisMixed, num_count: 41 },
              { species: 2, sex: 4, num_count: 12 },
            ],
            [
              { ...tarsalisMixed, num_count: 14 },
              { species: 1, sex: 2, num_count: 3 },
            ],
          ],
        },
      }),
      LOOKUPS,
    );
    expect(words).toEqual([
      'Count of Cx tarsalis F-Mixed 41 → 14',
      'Removed Cx pipiens F-Mixed (count 12)',
      'Added Cx tarsalis male: 3',
    ]);
  });

  it('names lures and looked-up fields by name, and an empty value as such', () => {
    const words = describeChanges(
      row({ changes: { lures: [[], [1]], trap: [1, 2], comments: [null, 'Wind'] } }),
      LOOKUPS,
    );
    expect(words).toEqual(['Added lure CO2', 'Trap type GRVD → CO2', 'Comments (empty) → Wind']);
  });

  it('says a create with its counts, and a delete', () => {
    expect(
      describeChanges(
        row({
          action: 'create',
          changes: {
            arthropods: [null, [{ ...tarsalisMixed, num_count: 41 }]],
            num_trap: [null, 1],
          },
        }),
        LOOKUPS,
      ),
    ).toEqual(['Added Cx tarsalis F-Mixed: 41']);
    expect(
      describeChanges(row({ action: 'delete', changes: { deactive_date: [null, 'x'] } }), LOOKUPS),
    ).toEqual(['Deleted']);
  });
});

describe('the changes since as CSV', () => {
  it('writes one line a change, quoting commas and keeping formulas as text', () => {
    const csv = historyCsv(
      [row({ user: { id: 2, full_name: '=HYPERLINK("x")' }, changes: { num_trap: [1, 2] } })],
      (r) => describeChanges(r, LOOKUPS),
    );
    const [head, line] = csv.replace(/^\uFEFF/, '').split('\r\n');
    expect(head).toBe('at,user,action,record_type,record_id,changes,changes_json');
    expect(line).toBe(
      `2026-07-15T16:20:00.000Z,"'=HYPERLINK(""x"")",update,Collection,12,Number of traps 1 → 2,"{""num_trap"":[1,2]}"`,
    );
  });
});
