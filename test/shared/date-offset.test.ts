import { describe, expect, it } from 'vitest';
import { collectionCreate, fieldsFromZod, isoDateInput } from '../../src/shared';

/**
 * Zones on earth run from UTC−12:00 (Baker Island) to UTC+14:00 (Line Islands). An offset
 * beyond them is a typo (or an attack on the test-date rule, which assumes that range), and
 * must be refused with a message naming the field, by the server and by the forms alike.
 */
describe('date-time offsets', () => {
  it.each([
    '2026-07-14T06:30:00+14:00',
    '2026-07-14T06:30:00-12:00',
    '2026-07-14T06:30:00+05:45',
    '2026-07-14T06:30:00-09:30',
    '2026-07-14T06:30:00Z',
    '2026-07-14T06:30:00.123-07:00',
    '2026-07-14',
  ])('accepts %s', (value) => {
    expect(isoDateInput.safeParse(value).success).toBe(true);
  });

  it.each([
    '2026-07-14T06:30:00+14:01',
    '2026-07-14T06:30:00+15:00',
    '2026-07-14T06:30:00+23:59',
    '2026-07-14T06:30:00-12:01',
    '2026-07-14T06:30:00-13:00',
    '2026-07-14T06:30:00-23:59',
  ])('refuses %s, naming the field and the range', (value) => {
    const input = {
      collection_date: value,
      num_trap: 1,
      trap: 1,
      trap_nights: 1,
      location: {
        shape: { type: 'Point', coordinates: [-121.49, 38.58] },
        coordinate_precision: 1,
      },
    };
    const result = collectionCreate.safeParse(input);
    expect(result.success).toBe(false);
    const fields = result.success ? [] : fieldsFromZod(result.error as never, input);
    expect(fields.map((f) => f.path)).toEqual(['collection_date']);
    expect(fields[0].message).toMatch(/-12:00.*\+14:00/);
  });
});
