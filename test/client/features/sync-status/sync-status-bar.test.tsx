import { waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderBar } from '../helpers/bar-and-home';
import {
  queueRefusedWithDependents,
  REFUSED_WITH_DEPENDENTS,
  untilStatus,
} from '../../sync/helpers/adversarial-queues';
import { queueCreate, site } from '../../sync/helpers/outbox-factory';
import { drain, setupEngine } from '../../sync/helpers/setup-engine';

describe('sync status bar', () => {
  it('never says "All changes sent" while a refused change still waits for a fix', async () => {
    const { db, bff, engine } = setupEngine();
    await queueCreate(db, 'site', site(1));
    bff.fault = () => ({ status: 422, code: 'validation_failed', message: 'Site code is taken' });
    const bar = renderBar(engine);
    await drain(engine);
    await within(bar).findByText('1 change not sent — it needs your attention');
    expect(within(bar).queryByText('All changes sent')).not.toBeInTheDocument();
    // Said once: the headline already names it, a second sentence would only crowd the bar.
    expect(within(bar).queryByText(/before it can be sent/)).not.toBeInTheDocument();
  });

  it('says refused changes need attention beside what waits offline, counting them as not sent', async () => {
    const { db, bff, engine } = setupEngine();
    await queueCreate(db, 'site', site(1));
    await queueCreate(db, 'site', site(2));
    bff.fault = () => ({ status: 422, code: 'validation_failed', message: 'Site code is taken' });
    await drain(engine);
    await queueCreate(db, 'site', site(3));
    vi.stubGlobal('navigator', { ...navigator, onLine: false });
    engine.start();
    const bar = renderBar(engine);
    // One count of what is not on the server: the two refused changes are on this tablet only.
    await within(bar).findByText('Offline — 3 changes saved on this tablet');
    await within(bar).findByText('2 changes need your attention before they can be sent.');
  });

  it('counts a refused create, the 2 changes held behind it and an unrelated one as one number, and says what the refused one holds back', async () => {
    const { db, bff, engine } = setupEngine({
      backoff: { baseMs: 60_000, capMs: 60_000 },
      random: () => 0.9,
    });
    await queueRefusedWithDependents(db, bff);
    const bar = renderBar(engine);
    engine.requestSync('test');
    await untilStatus(engine, REFUSED_WITH_DEPENDENTS);

    await within(bar).findByText('4 changes not sent — 1 needs your attention');
    expect(
      within(bar).getByText('2 changes wait on it until it is fixed or discarded.'),
    ).toBeInTheDocument();
    // Nothing here says the held changes are on their way, or that all is well.
    expect(within(bar).queryByText(/waiting to send/)).not.toBeInTheDocument();
    expect(within(bar).queryByText('All changes sent')).not.toBeInTheDocument();
    expect(within(bar).queryByText(/Last synced/)).not.toBeInTheDocument();
    const counts = within(within(bar).getByRole('list', { name: 'Changes by state' }));
    expect(counts.getByText('1 pending')).toBeInTheDocument();
    expect(counts.getByText('1 needs attention')).toBeInTheDocument();
    expect(counts.getByText('2 waiting on a fix')).toBeInTheDocument();
    expect(
      within(bar).getByText('Not synced yet on this tablet · last try: no connection'),
    ).toBeInTheDocument();
  });

  it('while paused for sign-in after sending only part of the queue, never says "Last synced"', async () => {
    const { db, bff, engine } = setupEngine();
    const first = await queueCreate(db, 'site', site(1));
    const second = await queueCreate(db, 'site', site(2));
    bff.fault = (req) =>
      req.key === second.entryId ? { status: 401, code: 'reauth_required' } : null;
    const bar = renderBar(engine);
    await drain(engine);
    expect(bff.postsFor(first.entryId)).toBe(1);

    await within(bar).findByText('Sign in again to send 1 change');
    expect(within(bar).getByText('Not synced yet on this tablet')).toBeInTheDocument();
    expect(within(bar).queryByText(/Last synced/)).not.toBeInTheDocument();

    bff.fault = () => null;
    engine.resume();
    await engine.settled();
    await within(bar).findByText('All changes sent');
    await within(bar).findByText('Last synced just now');
  });

  it('after a complete sync, a change left waiting makes the time a past complete sync, not "Last synced"', async () => {
    const { db, bff, engine } = setupEngine();
    await queueCreate(db, 'site', site(1));
    const bar = renderBar(engine);
    await drain(engine);
    await within(bar).findByText('Last synced just now');

    const later = await queueCreate(db, 'site', site(2));
    bff.fault = (req) =>
      req.key === later.entryId ? { status: 401, code: 'reauth_required' } : null;
    await drain(engine);
    await within(bar).findByText('Sign in again to send 1 change');
    expect(within(bar).getByText('Last fully synced just now')).toBeInTheDocument();
    expect(within(bar).queryByText(/Last synced/)).not.toBeInTheDocument();
  });

  it('a partial drain is not a sync: "Last synced" only once everything is sent', async () => {
    const { db, bff, engine } = setupEngine({
      backoff: { baseMs: 60_000, capMs: 60_000 },
      random: () => 0.9,
    });
    await queueCreate(db, 'site', site(1));
    await queueCreate(db, 'site', site(2));
    const failing = await queueCreate(db, 'site', site(3));
    bff.fault = (req) => (req.key === failing.entryId ? { status: 503 } : null);
    const bar = renderBar(engine);
    engine.requestSync('test');
    await untilStatus(engine, { pending: 1, sending: 0 });

    await within(bar).findByText('1 change waiting to send');
    await waitFor(() => expect(bff.all('site')).toHaveLength(2));
    await within(bar).findByText(
      'Not synced yet on this tablet · last try: the server was unavailable',
    );
    expect(within(bar).queryByText(/Last synced/)).not.toBeInTheDocument();

    bff.fault = () => null;
    await userEvent.click(within(bar).getByRole('button', { name: 'Sync now' }));
    await within(bar).findByText('All changes sent');
    await within(bar).findByText('Last synced just now');
    expect(bff.all('site')).toHaveLength(3);
  });
});
