import { describe, expect, it } from 'vitest';
import {
  earliestCollectionDay,
  latestTestDay,
  standalonePoolDay,
  testBeforeCollection,
  testDateMessages,
} from '#shared/rules';

describe('a pool test not before its collection', () => {
  it('accepts a test on the day of its collection or later and refuses the day before', () => {
    expect(testBeforeCollection('2026-07-14', '2026-07-14')).toBe(false);
    expect(testBeforeCollection('2026-07-15', '2026-07-14')).toBe(false);
    expect(testBeforeCollection('2026-07-13', '2026-07-14')).toBe(true);
    expect(testBeforeCollection('2025-12-31', '2026-01-01')).toBe(true);
  });

  it('reads a date-only collection as written and a date-time at its westernmost day', () => {
    expect(earliestCollectionDay('2026-07-14T00:00:00.000Z', true)).toBe('2026-07-14');
    // 18:00 PDT is 01:00 UTC the next day; at UTC−12 it is still the 14th.
    expect(earliestCollectionDay('2026-07-15T01:00:00.000Z', false)).toBe('2026-07-14');
    expect(standalonePoolDay('2026-07-14T00:00:00.000Z')).toBe('2026-07-14');
    expect(standalonePoolDay(new Date('2026-07-15T01:00:00.000Z'))).toBe('2026-07-14');
  });

  it('reads a test at its easternmost day, a date-only test keeping its written day', () => {
    expect(latestTestDay('2026-07-14T00:00:00.000Z')).toBe('2026-07-14');
    expect(latestTestDay('2026-07-14T12:00:00.000Z')).toBe('2026-07-15');
  });

  it('accepts a same-day test wherever the technician stands', () => {
    // Collected 18:00 at UTC−7 on the 14th, tested 09:00 at UTC+9 on the 14th (the 14th 00:00 UTC).
    const collectionDay = earliestCollectionDay('2026-07-15T01:00:00.000Z', false);
    expect(testBeforeCollection(latestTestDay('2026-07-14T00:00:00.000Z'), collectionDay)).toBe(
      false,
    );
  });

  it('words the problem for the service and the forms', () => {
    expect(testDateMessages.testDate('2026-07-13', '2026-07-14')).toBe(
      "The test date 2026-07-13 is before the pool's collection on 2026-07-14; check both dates",
    );
    expect(testDateMessages.collectionDate('2026-07-13', '2026-07-14')).toBe(
      'A pool of this collection was tested on 2026-07-13, before the new collection date 2026-07-14; check the dates',
    );
    expect(testDateMessages.poolCollection('2026-07-13', '2026-07-14')).toBe(
      'This pool was tested on 2026-07-13, before the collection date 2026-07-14 it would get; check the dates',
    );
    expect(testDateMessages.formTestDate('14 Jul 2026')).toBe(
      'The test date cannot be before the collection date (14 Jul 2026)',
    );
    expect(testDateMessages.formCollectionDate('13 Jul 2026')).toBe(
      'A pool of this collection was tested on 13 Jul 2026: the collection date cannot be after that',
    );
  });
});
