import { describe, expect, it } from 'vitest';
import {
  ctOutOfRange,
  latestServiceTestDay,
  poolTestCreate,
  reportsCt,
  testDateTooLate,
  writtenDay,
} from '../../../src/shared';

describe('pool test values (issue 35, 6)', () => {
  it('takes a Ct from 0 to 45 cycles and nothing outside', () => {
    expect([0, 0.1, 31.5, 45].map(ctOutOfRange)).toEqual([false, false, false, false]);
    expect([-5, -0.01, 45.01, 200, Number.NaN].map(ctOutOfRange)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
  });

  it('reads a PCR method’s value as a Ct, and RAMP units or a dipstick’s as not', () => {
    expect(reportsCt({ name: 'RT-PCR', acronym: 'RT-PCR' })).toBe(true);
    expect(reportsCt({ name: 'Real-time quantitative PCR', acronym: null })).toBe(true);
    expect(reportsCt({ name: 'qRT-pcr' })).toBe(true);
    expect(reportsCt({ name: 'RAMP', acronym: 'RAMP' })).toBe(false);
    expect(reportsCt({ name: 'VecTest', acronym: 'VecTest' })).toBe(false);
  });

  it('lets the service accept up to its UTC day + 1, across a month’s end', () => {
    expect(latestServiceTestDay(new Date('2026-07-31T23:59:59.999Z'))).toBe('2026-08-01');
    expect(latestServiceTestDay(new Date('2026-12-31T00:00:00.000Z'))).toBe('2027-01-01');
    expect(testDateTooLate('2026-08-01', '2026-08-01')).toBe(false);
    expect(testDateTooLate('2026-08-02', '2026-08-01')).toBe(true);
  });

  it('compares the day as the tablet wrote it, whatever its offset', () => {
    expect(writtenDay('2026-08-02T00:30:00+14:00')).toBe('2026-08-02');
    expect(writtenDay('2026-08-01T23:30:00-12:00')).toBe('2026-08-01');
    expect(writtenDay('2026-08-01')).toBe('2026-08-01');
  });

  it('refuses a negative value in the shared schema, for every method', () => {
    const body = {
      pool: 1,
      method: 2,
      target: 1,
      status: 1,
      test_date: '2026-07-20',
      test_agency: 3,
    };
    expect(poolTestCreate.safeParse({ ...body, value: 212 }).success).toBe(true);
    const negative = poolTestCreate.safeParse({ ...body, value: -1 });
    expect(negative.success).toBe(false);
    expect(negative.error?.issues.map((i) => i.path.join('.'))).toEqual(['value']);
  });
});
