import { describe, expect, it } from 'vitest';
import { formatReport } from '../bench/fuzz/report-table';
import { runSoak } from '../bench/fuzz/run-soak';

/**
 * The fuzz/soak run (test/bench/fuzz-soak.ts, `npm run soak` for 10,000 requests) at a small
 * fixed seed: valid and damaged requests to every route of the records service and the BFF,
 * straight and through the BFF, over real HTTP on real PGlite. Whatever a request holds, its
 * answer comes in time, is never a 5xx, has the contract's error body, and leaves no
 * half-written record behind.
 */
describe('fuzzed requests to every route of both servers', () => {
  it('800 seeded requests: no 5xx, no hang, nothing off the contract, no half-written record', async () => {
    const report = await runSoak({
      requests: 800,
      seed: 20_261_123,
      // One request at a time (bursts stay concurrent): each answer teaches the generator before
      // the next draw, so a seed gives the same requests every run. At 6 in flight which request
      // was drawn when depended on timing, and a rare route (an agency token, the export
      // summary) went unreached now and then (2 of 4 PostgreSQL runs at 600 requests).
      concurrency: 1,
      timeoutMs: 20_000,
    });
    const table = formatReport(report);
    expect(report.requests + report.unsendable, table).toBe(800);
    expect(report.missingRoutes, table).toEqual([]);
    expect(report.serverErrors, table).toEqual([]);
    expect(report.hangs, table).toEqual([]);
    expect(report.connectionErrors, table).toEqual([]);
    expect(report.contractViolations, table).toEqual([]);
    expect(report.burstProblems, table).toEqual([]);
    expect(report.violations, table).toEqual([]);
  }, 600_000);
});
