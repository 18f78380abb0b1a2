import { describe, expect, it } from 'vitest';
import { storedMatch } from '../../../src/server/bff/stored-match';

/** A collection as the records service lists it, for the body below. */
const stored = () => ({
  id: 7,
  site: 12,
  collection_date: '2026-07-13T00:00:00.000Z',
  num_trap: 1,
  trap: { id: 2, acronym: 'CO2' },
  trap_nights: 1,
  comments: null,
  location: {
    id: 3,
    shape: { type: 'Point', coordinates: [-121.5, 38.6] },
    coordinate_precision: 1,
  },
  arthropods: [
    { id: 40, species: 1, sex: 4, num_count: 12 },
    { id: 41, species: { id: 3 }, sex: 2, num_count: 4 },
  ],
  lures: [{ id: 90, lure: 5, table_name: 'collection' }],
  elevation: '12.5',
});

const body = () => ({
  site: 12,
  collection_date: '2026-07-13',
  num_trap: 1,
  trap: 2,
  trap_nights: 1,
  location: { shape: { type: 'Point', coordinates: [-121.5, 38.6] }, coordinate_precision: 1 },
  arthropods: [
    { species: 3, sex: 2, num_count: 4 },
    { species: 1, sex: 4, num_count: 12 },
  ],
  lures: [5],
  elevation: 12.5,
});

describe('storedMatch: is a listed record exactly what a create body asked for', () => {
  it('is the same when every sent field equals the stored one, whatever order rows come in and however references are shown', () => {
    expect(storedMatch(body(), stored())).toBe('same');
    expect(storedMatch({ ...body(), comments: null }, stored())).toBe('same');
  });

  it('tells look-alikes apart by any one field, abundance rows and lures included', () => {
    expect(storedMatch({ ...body(), num_trap: 2 }, stored())).toBe('different');
    expect(storedMatch({ ...body(), collection_date: '2026-07-14' }, stored())).toBe('different');
    expect(
      storedMatch(
        {
          ...body(),
          arthropods: [
            { species: 3, sex: 2, num_count: 4 },
            { species: 1, sex: 4, num_count: 13 },
          ],
        },
        stored(),
      ),
    ).toBe('different');
    expect(storedMatch({ ...body(), arthropods: [] }, stored())).toBe('different');
    expect(storedMatch({ ...body(), lures: [6] }, stored())).toBe('different');
    expect(storedMatch({ ...body(), comments: 'wet night' }, stored())).toBe('different');
    expect(storedMatch({ ...body(), elevation: 13 }, stored())).toBe('different');
  });

  it('reads lures given as ids, link records or lure types', () => {
    expect(storedMatch({ lures: [5] }, { lures: [5] })).toBe('same');
    expect(storedMatch({ lures: [5] }, { lures: [{ id: 5, code: 'CO2' }] })).toBe('same');
  });

  it('cannot tell when the list leaves a sent field out, and never calls that the same', () => {
    const { comments: _c, ...withoutComments } = stored();
    expect(storedMatch({ ...body(), comments: 'wet night' }, withoutComments)).toBe('unknown');
    const { arthropods: _a, ...withoutRows } = stored();
    expect(storedMatch(body(), withoutRows)).toBe('unknown');
  });
});
