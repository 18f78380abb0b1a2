import { act, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderBar } from '../helpers/bar-and-home';
import type { SyncEngine } from '../../../../src/client/sync';
import { failSitePulls, isSitePull, seedTwinSites, sitePulls } from '../../sync/helpers/fake-bff';
import { pass, until } from '../../sync/helpers/fake-time';
import { queueCreate, site } from '../../sync/helpers/outbox-factory';
import { retryingEngine } from '../../sync/helpers/setup-engine';

/** Fake time moved on, with the bar's renders flushed. */
const passShown = (ms: number) => act(() => pass(ms));

/**
 * A failed pull waits 0.75 of 2 min, then of 4 min… Nothing waits to be sent, so the bar's
 * headline says all is sent whatever the pull does: only the line about the office's changes can
 * tell the technician that the sites the office added have not come.
 */
const retrying = () => retryingEngine({ baseMs: 120_000, capMs: 960_000 });

/** A failed pull's next try is ahead (none is being made, none is due). */
const waitingAgain = (engine: SyncEngine) => () =>
  (engine.getStatus().pullFailure?.retryAt ?? 0) > Date.now();

const NOT_RECEIVED = /^Office changes not received/;

describe('sync status bar: the office’s changes', () => {
  it('says they did not arrive and when it tries again, until a try gets them', async () => {
    const { db, bff, engine } = retrying();
    const twins = seedTwinSites(bff);
    failSitePulls(bff, 2);
    const bar = renderBar(engine);
    engine.start();
    await act(() => until(waitingAgain(engine), 500));

    // Nothing of the tablet's waits: all sent, and yet the office's sites are not here.
    expect(within(bar).getByText('All changes sent')).toBeInTheDocument();
    expect(
      within(bar).getByText(
        'Office changes not received (the server was unavailable) — trying again in 2 min',
      ),
    ).toBeInTheDocument();
    expect(await db.sites.count()).toBe(0);

    // The wait counts down with the bar's clock (90 s in all).
    await passShown(30_000);
    expect(within(bar).getByText(/trying again in 1 min$/)).toBeInTheDocument();

    // The retry fails too: the next wait is twice as long (0.75 × 4 min).
    await passShown(60_000);
    await act(() => until(waitingAgain(engine), 500));
    expect(sitePulls(bff)).toHaveLength(2);
    expect(within(bar).getByText(/trying again in 3 min$/)).toBeInTheDocument();

    // The third try gets through: the line goes, and each site is stored once.
    await passShown(180_000);
    await act(() => until(() => engine.getStatus().pullFailure === null));
    expect(sitePulls(bff)).toHaveLength(3);
    expect(within(bar).queryByText(NOT_RECEIVED)).not.toBeInTheDocument();
    const stored = await db.sites.toArray();
    expect(stored.map((s) => s.serverId).sort()).toEqual(twins.map((t) => t.id).sort());
  });

  it('says offline when the pull gets no answer though the browser says online, and sends on once one comes', async () => {
    const { bff, engine } = retrying();
    bff.seed('site', { ...site(1), name: 'Twin Slough' });
    bff.fault = (req) => (isSitePull(req) ? 'drop-before' : null);
    const bar = renderBar(engine);
    engine.start();
    await act(() => until(waitingAgain(engine), 500));
    // No answer is no connection, whatever navigator.onLine says (lie-fi): the headline says it
    // all, with no second line about the office.
    expect(navigator.onLine).toBe(true);
    expect(within(bar).getByText('Offline — changes are saved on this tablet')).toBeInTheDocument();
    expect(within(bar).queryByText(NOT_RECEIVED)).not.toBeInTheDocument();

    // The network back, with no `online` event: an answer (the connection's probe, or the pull's
    // next try) ends "offline", and the office's site arrives.
    bff.fault = () => null;
    await passShown(120_000);
    await act(() => until(() => engine.getStatus().pullFailure === null));
    expect(within(bar).getByText('All changes sent')).toBeInTheDocument();
    expect(within(bar).queryByText(NOT_RECEIVED)).not.toBeInTheDocument();
  });

  it('leaves it to the sign-in headline while the queue waits for the password', async () => {
    const { db, bff, engine } = retrying();
    seedTwinSites(bff);
    failSitePulls(bff, 1);
    const bar = renderBar(engine);
    engine.start();
    await act(() => until(waitingAgain(engine), 500));
    expect(within(bar).getByText(NOT_RECEIVED)).toBeInTheDocument();

    // A site saved meanwhile finds the session expired: sign-in is what the technician must do.
    const saved = await queueCreate(db, 'site', { ...site(3), name: 'Twin Slough' });
    bff.fault = (req) =>
      req.key === saved.entryId ? { status: 401, code: 'reauth_required' } : null;
    engine.requestSync('save');
    await act(() => until(() => engine.getStatus().paused, 500));
    expect(within(bar).getByText('Sign in again to send 1 change')).toBeInTheDocument();
    expect(within(bar).queryByText(NOT_RECEIVED)).not.toBeInTheDocument();
  });
});
