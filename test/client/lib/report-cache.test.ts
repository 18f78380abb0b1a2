import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import {
  readLastViewed,
  readStoredReports,
  REPORT_KEY,
  startReportCache,
  writeLastViewed,
} from '../../../src/client/lib/report-cache';

const report = (computedAt: number) => ({
  rows: [{ Year: 2026, Count: 38 }],
  count: 1,
  computedAt,
});

/** Until the owner's store holds `n` reports (writes are coalesced a moment after an answer). */
async function stored(owner: string, n: number) {
  await expect.poll(async () => (await readStoredReports(owner))?.queries.length ?? 0).toBe(n);
  return (await readStoredReports(owner))!;
}

describe('report cache (IndexedDB)', () => {
  it('keeps an owner’s report answers across a restart, and only report queries', async () => {
    const owner = '1:demo-manager';
    const first = new QueryClient();
    await startReportCache(first, owner);
    first.setQueryData([REPORT_KEY, owner, 'abundance', 'interval=Week'], report(1000));
    first.setQueryData(['session'], { user: 'x' });
    const state = await stored(owner, 1);
    expect(state.queries[0].queryKey).toEqual([REPORT_KEY, owner, 'abundance', 'interval=Week']);

    // A new app (a reload): the stored report is back before the screen asks for it.
    const next = new QueryClient();
    await startReportCache(next, owner);
    expect(next.getQueryData([REPORT_KEY, owner, 'abundance', 'interval=Week'])).toEqual(
      report(1000),
    );
    expect(next.getQueryData(['session'])).toBeUndefined();
  });

  it('asks again for a restored report when it is next shown, however recent it was', async () => {
    const owner = '1:fresh';
    const first = new QueryClient();
    await startReportCache(first, owner);
    first.setQueryData([REPORT_KEY, owner, 'abundance', 'q'], report(Date.now()));
    await stored(owner, 1);
    // A reload a moment later: the stored copy shows at once, and the screen's request tells
    // whether the tablet is connected (offline, it says the report shown is the kept one).
    const next = new QueryClient();
    await startReportCache(next, owner);
    expect(next.getQueryState([REPORT_KEY, owner, 'abundance', 'q'])?.isInvalidated).toBe(true);
  });

  it('never shows one user’s reports to the next on a shared tablet', async () => {
    const client = new QueryClient();
    await startReportCache(client, '1:alice');
    client.setQueryData([REPORT_KEY, '1:alice', 'abundance', 'q'], report(1));
    await stored('1:alice', 1);

    await startReportCache(client, '2:bob');
    expect(client.getQueryCache().findAll({ queryKey: [REPORT_KEY] })).toHaveLength(0);
    expect(await readStoredReports('2:bob')).toBeNull();
    // Alice's are still hers when she signs in again.
    await startReportCache(client, '1:alice');
    expect(client.getQueryData([REPORT_KEY, '1:alice', 'abundance', 'q'])).toEqual(report(1));
  });

  it('keeps the 20 newest reports', async () => {
    const owner = '1:busy';
    const client = new QueryClient();
    await startReportCache(client, owner);
    for (let i = 0; i < 25; i++)
      client.setQueryData([REPORT_KEY, owner, 'abundance', `q${i}`], report(i), {
        updatedAt: 1_000 + i,
      });
    const state = await stored(owner, 20);
    expect(state.queries.map((q) => q.queryKey[3])).toEqual(
      Array.from({ length: 20 }, (_, i) => `q${24 - i}`),
    );
  });

  it('adds its store to a database someone opened without it', async () => {
    indexedDB.deleteDatabase('trapline-report-cache');
    await new Promise<void>((resolve) => {
      const bare = indexedDB.open('trapline-report-cache');
      bare.onsuccess = () => {
        bare.result.close();
        resolve();
      };
    });
    const client = new QueryClient();
    await startReportCache(client, '3:carol');
    client.setQueryData([REPORT_KEY, '3:carol', 'abundance', 'q'], report(5));
    expect((await stored('3:carol', 1)).queries[0].state.data).toEqual(report(5));
  });

  it('remembers the report each user last viewed, for the next time Reports opens', async () => {
    expect(await readLastViewed('1:dana')).toBeNull();
    await writeLastViewed('1:dana', 'report=vector-index&year=2026');
    await writeLastViewed('2:erin', 'report=abundance&year=2025');
    expect(await readLastViewed('1:dana')).toBe('report=vector-index&year=2026');
    expect(await readLastViewed('2:erin')).toBe('report=abundance&year=2025');
    // Beside the stored reports, never in their place.
    const client = new QueryClient();
    await startReportCache(client, '1:dana');
    client.setQueryData([REPORT_KEY, '1:dana', 'abundance', 'q'], report(7));
    await stored('1:dana', 1);
    expect(await readLastViewed('1:dana')).toBe('report=vector-index&year=2026');
  });
});
