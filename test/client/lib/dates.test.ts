// A zone west of UTC: a date-only collection stored as UTC midnight must not show a day early.
process.env.TZ = 'America/Los_Angeles';

import { describe, expect, it } from 'vitest';
import { dayOf, formatDate, toIsoWithOffset, toLocalInput } from '../../../src/client/lib/dates';

describe('collection days west of UTC', () => {
  it('shows a date-only collection from the server on the day it was written', () => {
    expect(dayOf('2026-07-14T00:00:00.000Z', true)).toBe('2026-07-14');
    expect(formatDate('2026-07-14T00:00:00.000Z', true)).toBe('Jul 14, 2026');
  });

  it('shows a timed collection from the server on its local day and time', () => {
    // 02:30 UTC on the 15th is 19:30 on the 14th in California summer.
    expect(dayOf('2026-07-15T02:30:00.000Z')).toBe('2026-07-14');
    expect(formatDate('2026-07-15T02:30:00.000Z')).toBe('Jul 14, 2026, 07:30 PM');
  });

  it('keeps a date written on this tablet as written', () => {
    expect(dayOf('2026-07-14')).toBe('2026-07-14');
    expect(dayOf('2026-07-14T23:30:00-07:00')).toBe('2026-07-14');
    expect(formatDate('2026-07-14', true)).toBe('Jul 14, 2026');
  });

  it('opens a date-only server value in the form on the day it was written', () => {
    expect(toLocalInput('2026-07-14T00:00:00.000Z', true)).toBe('2026-07-14');
    expect(toIsoWithOffset('2026-07-14T06:30')).toBe('2026-07-14T06:30:00-07:00');
  });
});
