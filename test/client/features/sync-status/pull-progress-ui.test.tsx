import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SyncEngineProvider, SyncStatusBar } from '../../../../src/client/features/sync-status';
import { site } from '../../sync/helpers/outbox-factory';
import { setupEngine } from '../../sync/helpers/setup-engine';

afterEach(() => cleanup());

/** The sync bar while a first pull brings a district's sites (pages of 1,000, each ~150 ms). */
describe('pull progress in the sync bar', () => {
  it('counts the sites downloaded out of the total while a long pull runs, then goes away', async () => {
    const { db, bff, engine } = setupEngine({}, 150);
    for (let i = 1; i <= 2_500; i += 1) bff.seed('site', site(i));
    render(
      <SyncEngineProvider engine={engine}>
        <SyncStatusBar />
      </SyncEngineProvider>,
    );
    const pulled = engine.pull();

    const bar = await screen.findByRole('progressbar', {
      name: /^Downloading sites [\d,]+ of 2,500$/,
    });
    expect(bar).toHaveAttribute('max', '2500');
    expect(screen.getByText(/^Downloading sites (1,000|2,000|2,500) of 2,500$/)).toBeVisible();

    await pulled;
    await waitFor(() => expect(screen.queryByText(/^Downloading/)).toBeNull());
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(await db.sites.count()).toBe(2_500);
  }, 60_000);

  it('shows nothing for a pull that fits in one request', async () => {
    const { db, bff, engine } = setupEngine({}, 150);
    for (let i = 1; i <= 40; i += 1) bff.seed('site', site(i));
    const seen: string[] = [];
    render(
      <SyncEngineProvider engine={engine}>
        <SyncStatusBar />
      </SyncEngineProvider>,
    );
    const unsubscribe = engine.subscribe(() => {
      const text = document.body.textContent ?? '';
      if (text.includes('Downloading')) seen.push(text);
    });
    await engine.pull();
    unsubscribe();

    expect(await db.sites.count()).toBe(40);
    expect(engine.getStatus().pulling).toBeNull();
    expect(seen).toEqual([]);
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});
