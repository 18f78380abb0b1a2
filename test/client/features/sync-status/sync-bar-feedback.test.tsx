import { within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderBar } from '../helpers/bar-and-home';
import { untilStatus } from '../../sync/helpers/adversarial-queues';
import { queueCreate, site } from '../../sync/helpers/outbox-factory';
import { setupEngine } from '../../sync/helpers/setup-engine';

describe('sync status bar, what a failed try leaves on screen', () => {
  it('stops saying "last try: no connection" as soon as changes go again', async () => {
    // One change at a time, each answered after 600 ms: the drain is seen half done.
    const { db, bff, engine } = setupEngine(
      { concurrency: 1, backoff: { baseMs: 60_000, capMs: 60_000 }, random: () => 0.9 },
      600,
    );
    for (const n of [1, 2, 3]) await queueCreate(db, 'site', site(n));
    bff.fault = () => 'drop-before';
    const bar = renderBar(engine);
    engine.start();
    await untilStatus(engine, { pending: 3, sending: 0 });
    await within(bar).findByText(/last try: no connection/);

    bff.fault = () => null;
    await userEvent.click(within(bar).getByRole('button', { name: 'Sync now' }));
    await within(bar).findByText('Sending… 1 of 3 sent', {}, { timeout: 5_000 });
    // The connection is back and changes are going: the old failure is no longer news.
    expect(within(bar).queryByText(/last try/)).not.toBeInTheDocument();
    await within(bar).findByText('All changes sent', {}, { timeout: 10_000 });
    expect(within(bar).queryByText(/last try/)).not.toBeInTheDocument();
  });

  it('answers a tap on Sync now without a network: nothing can go, and it will go by itself', async () => {
    const { db, engine } = setupEngine();
    await queueCreate(db, 'site', site(1));
    vi.stubGlobal('navigator', { ...navigator, onLine: false });
    engine.start();
    const bar = renderBar(engine);
    await within(bar).findByText('Offline — 1 change saved on this tablet');
    expect(within(bar).queryByText(/No connection/)).not.toBeInTheDocument();

    await userEvent.click(within(bar).getByRole('button', { name: 'Sync now' }));
    const said = await within(bar).findByText('No connection — will send when online');
    // Said where a screen reader hears it, as the headline is.
    expect(within(bar).getByRole('status')).toContainElement(said);
  });
});
