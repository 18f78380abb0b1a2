/**
 * On PGlite the records service gathers the planner's statistics itself (housekeeping.ts). In a
 * burst of writes (a tablet's sync after a week offline) a table that doubled is analysed at
 * once, so its plans follow it; the full round, which analyses large tables that grew by a tenth
 * (and blocks the embedded database while it does), waits for the burst's first pause.
 */
import { expect, it, vi } from 'vitest';
import {
  STATISTICS_EVERY_WRITES,
  STATISTICS_QUIET_MS,
} from '../../../src/server/records/housekeeping';
import { makeCollection, signedInRecords } from './helpers/arthropod-fixtures';

const records = signedInRecords();

/** How many times each table has been analysed. */
async function analyses(): Promise<{ collection: number; record_lure: number }> {
  const { rows } = await records.t.db.query<{ relname: string; n: number }>(
    `select relname, analyze_count::int as n from pg_stat_user_tables
      where relname in ('collection', 'record_lure')`,
  );
  const of = (name: string) => rows.find((r) => r.relname === name)?.n ?? 0;
  return { collection: of('collection'), record_lure: of('record_lure') };
}

async function create(): Promise<void> {
  const res = await records.http.post(
    '/v1/arthropod/collection',
    records.token,
    makeCollection({ lures: [1] }),
  );
  expect(res.statusCode, res.body).toBe(201);
}

it.runIf(process.env.TRAPLINE_TEST_DATABASE_URL === undefined)(
  'analyses a table that doubled during a burst, and a large one that grew by a tenth at its pause',
  async () => {
    // A season already on file: 3,000 collections (their statistics taken), no lures yet.
    await records.t.db.query(
      `insert into collection (agency, collection_date, collection_num, num_trap, surv_year,
         trap, trap_nights)
       select 1, '2025-07-01', g, 1, 2025, 1, 1 from generate_series(1, 3000) g`,
    );
    await records.t.db.exec('analyze collection');
    // The round the service runs once ready is over when the counts stand still.
    let settled = await analyses();
    await vi.waitFor(
      async () => {
        await new Promise((r) => setTimeout(r, 200));
        const now = await analyses();
        const still = JSON.stringify(now) === JSON.stringify(settled);
        settled = now;
        expect(still).toBe(true);
      },
      { timeout: 10_000, interval: 0 },
    );

    for (let i = 0; i < STATISTICS_EVERY_WRITES; i++) await create();
    // The burst goes on for longer than the pause the full round waits for.
    const until = Date.now() + STATISTICS_QUIET_MS * 1.5;
    while (Date.now() < until) await create();
    const inBurst = await analyses();
    // The lures grew from none to hundreds: analysed in the burst. The collections grew by a
    // fifth or so: not yet.
    expect(inBurst.record_lure).toBeGreaterThan(settled.record_lure);
    expect(inBurst.collection).toBe(settled.collection);

    // Then the burst pauses, and the full round follows.
    await vi.waitFor(
      async () => expect((await analyses()).collection).toBeGreaterThan(settled.collection),
      { timeout: STATISTICS_QUIET_MS + 5_000, interval: 100 },
    );
  },
  30_000,
);
