import { describe, expect, it } from 'vitest';
import { sameFormValues, typedOnto } from '../../../../src/client/lib/drafts/draft-values';

describe('a form’s values compared for its draft', () => {
  it('counts a cleared field as the blank it started as, and text in a number field as itself', () => {
    expect(sameFormValues({ name: '', comments: null }, { name: undefined })).toBe(true);
    expect(sameFormValues({ count: NaN }, { count: NaN })).toBe(true);
    expect(sameFormValues({ count: 0 }, { count: undefined })).toBe(false);
  });

  it('tells look-alike rows apart by their order and every field', () => {
    const rows = [
      { species: 1, sex: 4, num_count: 25 },
      { species: 1, sex: 2, num_count: 25 },
    ];
    expect(sameFormValues({ rows }, { rows: [rows[0], { ...rows[1] }] })).toBe(true);
    expect(sameFormValues({ rows }, { rows: [rows[1], rows[0]] })).toBe(false);
    expect(sameFormValues({ rows }, { rows: [rows[0]] })).toBe(false);
  });
});

describe('an edit draft put onto the record as it is now', () => {
  it('brings back the typed fields and keeps what changed underneath in the others', () => {
    const openedWith = { trap_nights: 1, comments: undefined, arthropods: [{ num_count: 40 }] };
    const draft = { trap_nights: 2, comments: undefined, arthropods: [{ num_count: 40 }] };
    const now = { trap_nights: 1, comments: 'Trap moved', arthropods: [{ num_count: 45 }] };
    expect(typedOnto(draft, openedWith, now)).toEqual({
      trap_nights: 2,
      comments: 'Trap moved',
      arthropods: [{ num_count: 45 }],
    });
  });
});
