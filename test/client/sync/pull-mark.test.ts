import { describe, expect, it } from 'vitest';
import { COMMIT_WAIT_MS, changedSince, settledBeforeOf } from '../../../src/client/sync/pull-mark';

const NEWEST = '2026-07-20T12:00:00.123Z';
const at = (iso: string) => Date.parse(iso);

describe('where the next incremental pull starts', () => {
  it('pulls everything when no pull has seen a row yet', () => {
    expect(changedSince(undefined)).toBeNull();
    expect(changedSince({ maxUpdated: null, pulledAt: 0, settledBefore: null })).toBeNull();
  });

  it('starts at the newest row seen, in the server’s own words, once every earlier write had committed', () => {
    const settledBefore = at(NEWEST) + 1;
    expect(changedSince({ maxUpdated: NEWEST, pulledAt: 0, settledBefore })).toBe(NEWEST);
  });

  it('starts where writes were still committing when the list was read', () => {
    const settledBefore = at(NEWEST) - 5_000;
    expect(changedSince({ maxUpdated: NEWEST, pulledAt: 0, settledBefore })).toBe(
      new Date(settledBefore).toISOString(),
    );
  });

  it('looks a whole commit wait back from a mark kept without the server’s time', () => {
    // Marks kept by earlier versions, and answers without a Date header.
    const expected = new Date(at(NEWEST) - COMMIT_WAIT_MS).toISOString();
    expect(changedSince({ maxUpdated: NEWEST, pulledAt: 0 })).toBe(expected);
    expect(changedSince({ maxUpdated: NEWEST, pulledAt: 0, settledBefore: null })).toBe(expected);
  });

  it('keeps a mark it cannot read as a date as it is', () => {
    expect(changedSince({ maxUpdated: 'v17', pulledAt: 0, settledBefore: null })).toBe('v17');
  });

  it('reads the server’s time from the Date header, a commit wait back', () => {
    expect(settledBeforeOf('Mon, 20 Jul 2026 12:10:00 GMT')).toBe(
      at('2026-07-20T12:10:00.000Z') - COMMIT_WAIT_MS,
    );
    expect(settledBeforeOf(null)).toBeNull();
    expect(settledBeforeOf('soon')).toBeNull();
  });
});
