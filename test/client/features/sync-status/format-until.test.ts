import { describe, expect, it } from 'vitest';
import { formatUntil } from '../../../../src/client/features/sync-status/format-time';

const NOW = Date.UTC(2026, 10, 28, 14, 0, 0);

describe('formatUntil: when a retry is due, as the sync bar says it', () => {
  it('never says a try comes sooner than it does', () => {
    expect(formatUntil(NOW, NOW)).toBe('now');
    expect(formatUntil(NOW - 5_000, NOW)).toBe('now');
    expect(formatUntil(NOW + 1, NOW)).toBe('in under a minute');
    expect(formatUntil(NOW + 59_999, NOW)).toBe('in under a minute');
    expect(formatUntil(NOW + 60_000, NOW)).toBe('in 1 min');
    // 61 s is not "in 1 min": rounded up.
    expect(formatUntil(NOW + 61_000, NOW)).toBe('in 2 min');
    expect(formatUntil(NOW + 15 * 60_000, NOW)).toBe('in 15 min');
  });

  it('says only "later" for a time over an hour away (stamped before the clock was set back)', () => {
    expect(formatUntil(NOW + 60 * 60_000, NOW)).toBe('in 60 min');
    expect(formatUntil(NOW + 3 * 86_400_000, NOW)).toBe('later');
  });
});
