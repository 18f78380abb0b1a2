import { describe, expect, it } from 'vitest';
import { survYearOf } from '#shared/rules';

describe('survey year default', () => {
  it('is the year of the date as written, not of its UTC instant', () => {
    expect(survYearOf('2025-12-31T23:30:00-08:00')).toBe(2025);
    expect(survYearOf('2026-01-01T00:30:00+14:00')).toBe(2026);
    expect(survYearOf('2026-07-14')).toBe(2026);
  });
});
