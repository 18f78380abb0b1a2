import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshStatistics } from '../../../../src/server/db/refresh-statistics';
import { REPORT_PAGES_AT_ONCE } from '../../../../src/server/bff/reports/report-list-read';
import { growSeasons } from '../../../bench/grow-seasons';
import { serveHop, startBffStack, type BffStack } from '../helpers/bff-stack';
import { forwardingHop, isReportListRead } from '../helpers/forwarding-hop';

/**
 * A report on a district's history reads thousands of records from the records service, whose
 * embedded database answers one statement at a time. Every list page a report has asked for and
 * not yet received is a page of statements queued ahead of any other user's request: with six
 * at once a colleague's site list waited 2.4–3.6 s (test/bench/report-bounds-bench.ts). What the
 * reports may hold open at the records service, counted where the BFF's requests arrive, so the
 * test needs no clock: the most list requests of the reports in flight at once, alone and with
 * two agencies' reports side by side.
 */
const season = new Date().getUTCFullYear();
/** Two seasons of 1,500 collections (and ~1,500 pools): both lists take several pages. */
const YEARS = [season - 1, season];
const PER_SEASON = 1_500;
const ALL_YEARS = YEARS.map((y) => `year=${y}`).join('&');

/** A hop that forwards everything and counts the list GETs in flight (asked, not yet answered). */
function countingHop(target: string) {
  const counts = { now: 0, most: 0, asked: 0 };
  const server = forwardingHop(target, {
    intercept(req) {
      if (isReportListRead(req)) {
        counts.asked += 1;
        counts.now += 1;
        counts.most = Math.max(counts.most, counts.now);
      }
      return false;
    },
    settled(req) {
      if (isReportListRead(req)) counts.now -= 1;
    },
  });
  return {
    server,
    counts,
    reset() {
      counts.most = counts.now;
      counts.asked = 0;
    },
  };
}

let stack: BffStack;
let hop: ReturnType<typeof countingHop>;
let manager: string;
let neighbor: string;

beforeAll(async () => {
  stack = await startBffStack({
    hop: (url) => serveHop((hop = countingHop(url)).server),
  });
  const grown = await growSeasons(stack.records.db, YEARS, PER_SEASON);
  expect(grown.pools).toBeGreaterThan(1_000);
  await refreshStatistics(stack.records.db);
  manager = await stack.signIn('demo-manager');
  neighbor = await stack.signIn('neighbor-manager');
}, 180_000);
afterAll(async () => {
  await stack?.close();
});

/** A report on the agency's lists read afresh (a write through the BFF drops the kept ones). */
async function freshReport(cookie: string) {
  const res = await stack.api(`/api/reports/vector-index?${ALL_YEARS}`, { cookie });
  expect(res.status, res.text).toBe(200);
  return res.json<{ count: number }>();
}

describe("the reports' list pages at the records service", () => {
  it('one report asks for its pages one at a time', async () => {
    hop.reset();
    const report = await freshReport(manager);
    expect(report.count).toBeGreaterThan(0);
    // Both lists, several pages each, were read…
    expect(hop.counts.asked).toBeGreaterThanOrEqual(5);
    // …never more at once than the process allows (were up to 6: three id ranges of each list).
    expect(hop.counts.most).toBeLessThanOrEqual(REPORT_PAGES_AT_ONCE);
    expect(REPORT_PAGES_AT_ONCE).toBe(1);
  }, 120_000);

  it("two agencies' reports at once share the same page slots", async () => {
    // Agency 1's lists are kept from the first test: a write makes its next report read again.
    const write = await stack.api('/api/v1/arthropod/collection', {
      method: 'POST',
      cookie: manager,
      body: {
        collection_date: `${season}-07-15`,
        num_trap: 1,
        trap: 1,
        trap_nights: 1,
        location: {
          shape: { type: 'Point', coordinates: [-121.49, 38.58] },
          coordinate_precision: 1,
        },
      },
    });
    expect(write.status, write.text).toBe(201);
    hop.reset();
    const [mine, theirs] = await Promise.all([freshReport(manager), freshReport(neighbor)]);
    expect(mine.count).toBeGreaterThan(0);
    expect(theirs.count).toBe(0);
    expect(hop.counts.asked).toBeGreaterThanOrEqual(7);
    expect(hop.counts.most).toBeLessThanOrEqual(REPORT_PAGES_AT_ONCE);
  }, 120_000);
});
