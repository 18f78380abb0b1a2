import { screen, waitFor } from '@testing-library/react';
import { Profiler } from 'react';
import { describe, expect, it } from 'vitest';
import { HomeRoute } from '../../../../src/client/app/route-screens';
import { SyncEngineProvider, SyncStatusBar } from '../../../../src/client/features/sync-status';
import { queueCreate, site } from '../../sync/helpers/outbox-factory';
import { setupEngine } from '../../sync/helpers/setup-engine';
import { renderScreen } from '../helpers/records';

/**
 * Home while a first pull brings a district's sites: the sync bar counts the pages, and Home,
 * which shows none of that, is not drawn again for each of them. On a tablet every such render
 * of Home was page-thread time taken from the pull (at 4x CPU, tasks of 20–60 ms a page).
 */
describe('Home during a long pull', () => {
  it('is drawn again for a change it counts, not for each page of sites the bar counts', async () => {
    const { db, bff, engine } = setupEngine({}, 150);
    // Look-alike sites, one page of 1,000 after another.
    for (let i = 1; i <= 3_500; i += 1) bff.seed('site', site(i));
    let homeRenders = 0;
    renderScreen(
      db,
      <SyncEngineProvider engine={engine}>
        <SyncStatusBar />
        <Profiler id="home" onRender={() => (homeRenders += 1)}>
          <HomeRoute userName="Sam" />
        </Profiler>
      </SyncEngineProvider>,
    );
    await screen.findByRole('heading', { name: /^Hello, Sam/ });
    // Home's own reads (today's collections, the lists' age) have come in.
    await screen.findByText('No collections today yet.');
    engine.requestSync();
    await waitFor(() => expect(screen.getByTestId('home-pending')).toHaveTextContent('0'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const before = homeRenders;

    const pulled = engine.pull();
    await screen.findByText(/^Downloading sites [\d,]+ of 3,500$/);
    await pulled;
    await waitFor(() => expect(screen.queryByText(/^Downloading/)).toBeNull());
    expect(await db.sites.count()).toBe(3_500);
    expect(
      homeRenders - before,
      'Home drawn again during a pull that changed nothing it shows',
    ).toBe(0);

    // A change queued and sent: Home counts it while it waits, then counts it sent.
    await queueCreate(db, 'site', { ...site(1), code: '200001' });
    engine.requestSync();
    await waitFor(() => expect(screen.getByTestId('home-pending')).toHaveTextContent('1'));
    await waitFor(() => expect(screen.getByTestId('home-pending')).toHaveTextContent('0'));
  }, 60_000);
});
