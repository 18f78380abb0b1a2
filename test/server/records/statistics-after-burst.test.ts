/**
 * On PGlite the records service gathers the planner's statistics itself (housekeeping.ts). After
 * a burst of writes (a tablet's sync after a week offline) it does so at the burst's first pause,
 * not in the middle of it: ANALYZE blocks the embedded database, and every create of the burst
 * would wait behind it.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { buildTestRecords, type TestRecords } from '../helpers/records-app';
import {
  STATISTICS_EVERY_WRITES,
  STATISTICS_QUIET_MS,
} from '../../../src/server/records/housekeeping';
import { api, makeCollection, type Api } from './arthropod/arthropod-fixtures';

let t: TestRecords;
let http: Api;
let tech: string;
beforeAll(async () => {
  t = await buildTestRecords();
  http = api(t);
  tech = await t.login('demo-tech');
});
afterAll(() => t?.close());

/** How many times the collection table has been analysed. */
async function collectionAnalyses(): Promise<number> {
  const { rows } = await t.db.query<{ n: number }>(
    `select analyze_count::int as n from pg_stat_user_tables where relname = 'collection'`,
  );
  return rows[0].n;
}

async function create(): Promise<void> {
  const res = await http.post('/v1/arthropod/collection', tech, makeCollection());
  expect(res.statusCode, res.body).toBe(201);
}

it.runIf(process.env.TRAPLINE_TEST_DATABASE_URL === undefined)(
  'analyses the tables a burst of creates grew once the burst pauses, not during it',
  async () => {
    // The round the service runs once ready is over when the count stands still.
    let settled = await collectionAnalyses();
    await vi.waitFor(
      async () => {
        await new Promise((r) => setTimeout(r, 200));
        const now = await collectionAnalyses();
        const still = now === settled;
        settled = now;
        expect(still).toBe(true);
      },
      { timeout: 10_000, interval: 0 },
    );

    for (let i = 0; i < STATISTICS_EVERY_WRITES; i++) await create();
    // The burst goes on for longer than the pause a round waits for: no round in it.
    const until = Date.now() + STATISTICS_QUIET_MS * 1.5;
    while (Date.now() < until) await create();
    expect(await collectionAnalyses()).toBe(settled);

    // Then the burst pauses, and the statistics follow.
    await vi.waitFor(async () => expect(await collectionAnalyses()).toBeGreaterThan(settled), {
      timeout: STATISTICS_QUIET_MS + 5_000,
      interval: 100,
    });
  },
  30_000,
);
