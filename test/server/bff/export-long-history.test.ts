import { request as undiciRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBffStack, type BffStack } from './helpers/bff-stack';

/**
 * An agency with a long history, exported with the small pages `page_size` offers for a slow
 * upstream: the file holds every record, and is not cut off by the bound meant for an upstream
 * that pages forever.
 */
let stack: BffStack;
let neighbor: string;
const COLLECTIONS = 1_205;

beforeAll(async () => {
  stack = await startBffStack({ bff: { exportMinPageSize: 1 } });
  neighbor = await stack.signIn('neighbor-manager');
  // Empty traps of agency 2 (the neighbour), written straight into the records service's tables.
  await stack.records.db.query(
    `insert into collection (agency, user_id, collection_date, collection_date_date_only,
       collection_num, num_trap, surv_year, trap, trap_nights)
     select 2, 3, '2025-07-01', true, g, 1, 2025, 1, 1 from generate_series(1, $1::int) g`,
    [COLLECTIONS],
  );
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('a long history read in small pages', () => {
  it('is written whole, with its row count, when it takes more than a thousand pages', async () => {
    const res = await undiciRequest(`${stack.url}/api/export/collections.csv?page_size=1`, {
      headers: { cookie: neighbor, 'x-csrf': '1', origin: stack.url, accept: '*/*' },
    });
    expect(res.statusCode).toBe(200);
    let text = '';
    let error: unknown = null;
    try {
      for await (const chunk of res.body) text += String(chunk);
    } catch (err) {
      error = err;
    }
    const lines = text.split('\r\n').slice(1, -1);
    expect(error, `the download broke off after ${lines.length} rows`).toBeNull();
    expect(lines).toHaveLength(COLLECTIONS);
    expect(new Set(lines.map((l) => l.split(',')[0])).size).toBe(COLLECTIONS);
    expect(res.trailers['x-export-rows']).toBe(String(COLLECTIONS));
  }, 120_000);
});
