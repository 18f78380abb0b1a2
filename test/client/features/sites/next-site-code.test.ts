import { describe, expect, it } from 'vitest';
import {
  FIRST_PROPOSED_CODE,
  nextSiteCode,
} from '../../../../src/client/features/sites/next-site-code';

describe('nextSiteCode', () => {
  it('continues the agency numbering: the largest 6-digit code + 1', () => {
    expect(nextSiteCode(['000000', '100101', '104233', '100102'])).toBe('104234');
  });

  it('does not fill gaps while there is room above the largest code', () => {
    expect(nextSiteCode(['100001', '100005', '100003'])).toBe('100006');
  });

  it('keeps leading zeros', () => {
    expect(nextSiteCode(['000007', '000123'])).toBe('000124');
    expect(nextSiteCode(['000999'])).toBe('001000');
  });

  it('ignores codes that are not exactly 6 digits (older systems, typos)', () => {
    expect(nextSiteCode(['104233', 'A-1200', '9999999', '99999', ' 200000', '20000O'])).toBe(
      '104234',
    );
  });

  it('proposes a first code when the tablet knows only the Zero Site, legacy codes or nothing', () => {
    expect(nextSiteCode([])).toBe(FIRST_PROPOSED_CODE);
    expect(nextSiteCode(['000000'])).toBe(FIRST_PROPOSED_CODE);
    expect(nextSiteCode(['ZERO', 'B-17'])).toBe(FIRST_PROPOSED_CODE);
    expect(FIRST_PROPOSED_CODE).toMatch(/^[1-9]\d{5}$/);
  });

  it('with 999999 taken, falls back to the lowest free code, skipping 000000 and taken ones', () => {
    expect(nextSiteCode(['999999', '000000', '000001', '000002', '000004'])).toBe('000003');
    expect(nextSiteCode(['999999'])).toBe('000001');
  });

  it('counts a code typed twice once, and never proposes a taken code', () => {
    const codes = ['104233', '104233', '104234'];
    const next = nextSiteCode(codes);
    expect(next).toBe('104235');
    expect(codes).not.toContain(next);
  });

  // A million codes, twice: the file's longest test on a busy machine, so it gets more than
  // Vitest's 5 s default.
  it('proposes nothing when every code is taken', { timeout: 60_000 }, () => {
    const all = Array.from({ length: 1_000_000 }, (_, n) => String(n).padStart(6, '0'));
    expect(nextSiteCode(all)).toBeNull();
    expect(nextSiteCode(all.filter((c) => c !== '500000'))).toBe('500000');
  });
});
