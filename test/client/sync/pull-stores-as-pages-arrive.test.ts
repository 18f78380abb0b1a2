/**
 * A first pull stores what has arrived whenever the store is free: a slow page never holds back
 * the sites of the pages before it (the technician sees them, and a pull cut off keeps them), and
 * the pull ends with only the last rows still to write once the last page is in.
 */
import { describe, expect, it, vi } from 'vitest';
import { site } from './helpers/outbox-factory';
import { isSitePull } from './helpers/fake-bff';
import { setupEngine } from './helpers/setup-engine';

const NOW = Date.parse('2026-07-20T12:00:00.000Z');

describe('a first pull stores as pages arrive', () => {
  it('stores the sites of the pages already in while a later page is still on its way', async () => {
    const { db, bff, engine } = setupEngine({ now: () => NOW, pull: { pageSize: 2 } });
    for (let n = 1; n <= 8; n++) bff.seed('site', site(n));
    // Page 3 of the sites is held until the test lets it go (a slow answer on one bar of signal).
    let release = () => undefined as void;
    const page3 = new Promise<void>((resolve) => (release = resolve));
    const answer = bff.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://tablet.local');
      const isPage3 = url.pathname.endsWith('/site') && url.searchParams.get('page') === '3';
      if (isPage3) await page3;
      return answer(input, init);
    });

    const pulling = engine.pull();
    // Pages 1 and 2 answered: their four sites are written while page 3 waits.
    await vi.waitFor(async () => expect(await db.sites.count()).toBe(4), { timeout: 5_000 });
    release();
    await pulling;

    expect(await db.sites.count()).toBe(8);
    expect(bff.requests.filter(isSitePull)).toHaveLength(4);
  });
});
