import { act, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderBar } from '../helpers/bar-and-home';
import { createSyncEngine } from '../../../../src/client/sync';
import { collection, queueCreate, site } from '../../sync/helpers/outbox-factory';
import { drain, setupEngine } from '../../sync/helpers/setup-engine';

const DAY = 86_400_000;

afterEach(() => {
  vi.useRealTimers();
});

describe('sync status bar: when it last synced', () => {
  it('after the clock was set back, a sync stamped "in the future" is never "Last synced just now"', async () => {
    // The tablet's clock ran three days ahead while it synced a site and its collection.
    const corrected = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(corrected + 3 * DAY);
    const { db, engine } = setupEngine();
    const parent = await queueCreate(db, 'site', site(1));
    await queueCreate(db, 'collection', collection('2026-07-14'), parent.localId);
    await drain(engine);
    expect(engine.getStatus()).toMatchObject({ pending: 0, parked: 0 });
    engine.stop();

    // The clock is corrected; the app opens again in the field, offline, with a look-alike
    // collection (same site, same day) saved and waiting.
    vi.setSystemTime(corrected);
    await queueCreate(db, 'collection', collection('2026-07-14'), parent.localId);
    vi.stubGlobal('navigator', { ...navigator, onLine: false });
    const reopened = createSyncEngine(db, { autoPull: false, channelName: null });
    reopened.start();
    const bar = renderBar(reopened);
    await within(bar).findByText('Offline — 1 change saved on this tablet');
    await vi.waitFor(() => expect(reopened.getStatus().lastSuccessAt).not.toBeNull());
    expect(within(bar).queryByText(/just now/)).not.toBeInTheDocument();
    expect(
      within(bar).getByText('Last fully synced: time unknown (the tablet’s clock was changed)'),
    ).toBeInTheDocument();
    expect(within(bar).queryByText('Not synced yet on this tablet')).not.toBeInTheDocument();
    reopened.stop();
  });

  it('re-stamps the time at the next complete sync after the clock was set back', async () => {
    const corrected = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(corrected + 3 * DAY);
    const { db, engine } = setupEngine();
    await queueCreate(db, 'site', site(1));
    await drain(engine);
    vi.setSystemTime(corrected);
    await queueCreate(db, 'site', site(2));
    const bar = renderBar(engine);
    await drain(engine);
    await within(bar).findByText('All changes sent');
    expect(engine.getStatus().lastSuccessAt).toBeLessThanOrEqual(Date.now());
    expect(within(bar).getByText('Last synced just now')).toBeInTheDocument();
  });

  it('does not keep saying "Last synced just now" hours later when nothing else changed', async () => {
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    vi.setSystemTime(start);
    const { db, engine } = setupEngine();
    await queueCreate(db, 'site', site(1));
    const bar = renderBar(engine);
    await drain(engine);
    await within(bar).findByText('Last synced just now');

    // The tablet sits on the Home screen, nothing saved, no sync, for two hours.
    act(() => {
      vi.setSystemTime(start + 2 * 3_600_000);
      vi.advanceTimersByTime(60_000);
    });
    expect(within(bar).queryByText('Last synced just now')).not.toBeInTheDocument();
    expect(within(bar).getByText('Last synced 2 h ago')).toBeInTheDocument();
  });
});
