import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  RecordSyncBadge,
  SyncEngineProvider,
  SyncStatusBar,
} from '../../../../src/client/features/sync-status';
import { ConflictResolver } from '../../../../src/client/features/sync-status/conflict-resolver';
import { ParkedEntries } from '../../../../src/client/features/sync-status/parked-entries';
import type { SyncEngine } from '../../../../src/client/sync';
import {
  collection,
  pool,
  queueCreate,
  queueUpdate,
  site,
  storeSynced,
} from '../../sync/helpers/outbox-factory';
import {
  queueRefusedWithDependents,
  REFUSED_WITH_DEPENDENTS,
  untilStatus,
} from '../../sync/helpers/adversarial-queues';
import { drain, setupEngine } from '../../sync/helpers/setup-engine';

afterEach(() => cleanup());

const withEngine = (engine: SyncEngine, ui: ReactNode) =>
  render(<SyncEngineProvider engine={engine}>{ui}</SyncEngineProvider>);

describe('SyncStatusBar', () => {
  it('shows what waits, sends it on "Sync now" without waiting out the backoff, then the last sync time', async () => {
    const { db, bff, engine } = setupEngine({
      backoff: { baseMs: 60_000, capMs: 60_000 },
      random: () => 0.9,
    });
    await queueCreate(db, 'site', site(1));
    await queueCreate(db, 'site', site(2));
    bff.fault = () => 'drop-before';
    engine.start();
    withEngine(engine, <SyncStatusBar />);
    await screen.findByText('2 changes waiting to send');
    await screen.findByText(/Not synced yet on this tablet · last try: no connection/);

    bff.fault = () => null;
    const button = screen.getByRole('button', { name: 'Sync now' });
    expect(button).toHaveStyle({ minHeight: '48px' });
    await userEvent.click(button);
    await screen.findByText('All changes sent');
    await screen.findByText('Last synced just now');
    expect(bff.all('site')).toHaveLength(2);
  });

  it('says when the tablet is offline, keeps the changes and sends them once back online', async () => {
    const { db, bff, engine } = setupEngine();
    await queueCreate(db, 'site', site(1));
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    engine.start();
    withEngine(engine, <SyncStatusBar />);
    act(() => {
      window.dispatchEvent(new Event('offline'));
    });
    await screen.findByText('Offline — 1 change saved on this tablet');
    // Said once, in the headline: a second "(no network)" made the bar two lines in portrait.
    expect(screen.queryByText('(no network)')).not.toBeInTheDocument();
    expect(bff.requests).toHaveLength(0);
    online.mockRestore();
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await screen.findByText('All changes sent');
    expect(bff.all('site')).toHaveLength(1);
  });

  it('shows progress while draining', async () => {
    const { db, engine } = setupEngine({}, 40);
    for (let i = 0; i < 6; i += 1) await queueCreate(db, 'site', site(i));
    withEngine(engine, <SyncStatusBar />);
    engine.requestSync('manual');
    await waitFor(() => {
      expect(screen.getByRole('progressbar')).toHaveAttribute('max', '6');
      expect(screen.getByText(/Sending… [0-6] of 6 sent/)).toBeInTheDocument();
    });
    await engine.settled();
    await screen.findByText('All changes sent');
  });

  it('asks to sign in again when the queue is paused', async () => {
    const { db, bff, engine } = setupEngine();
    await queueCreate(db, 'site', site(1));
    bff.fault = () => ({ status: 401, code: 'reauth_required' });
    withEngine(engine, <SyncStatusBar />);
    await drain(engine);
    await screen.findByText('Sign in again to send 1 change');
    expect(screen.getByRole('button', { name: 'Sync now' })).toBeDisabled();
  });
});

describe('RecordSyncBadge', () => {
  it('names each state in words', () => {
    const states = ['queued', 'syncing', 'synced', 'failed', 'conflict'] as const;
    render(
      <>
        {states.map((s) => (
          <RecordSyncBadge key={s} state={s} />
        ))}
      </>,
    );
    for (const text of ['Saved on tablet', 'Sending', 'Synced', 'Needs attention', 'Conflict']) {
      expect(screen.getByText(text)).toBeInTheDocument();
    }
  });
});

describe('ParkedEntries', () => {
  it('shows the server’s message, opens the form on Fix, and lists dependents before discarding', async () => {
    const { db, bff, engine } = setupEngine();
    const s = await queueCreate(db, 'site', site(1));
    await queueCreate(db, 'collection', collection('2026-07-14'), s.localId);
    await queueCreate(db, 'pool', pool(), (await db.collections.toArray())[0].localId);
    bff.fault = () => ({
      status: 409,
      code: 'site_code_taken',
      message: "Site code 100001 is already used by 'Putah Creek N' — pick another code",
    });
    await drain(engine);
    const onFix = vi.fn();
    withEngine(engine, <ParkedEntries onFix={onFix} />);

    await screen.findByText(
      "Site code 100001 is already used by 'Putah Creek N' — pick another code",
    );
    expect(screen.getByText('New site 100001 Site 1')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Fix' }));
    expect(onFix).toHaveBeenCalledWith('site', s.localId);

    await userEvent.click(screen.getByRole('button', { name: 'Discard' }));
    const list = await screen.findByRole('list', { name: 'Changes discarded with it' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['New collection 2026-07-14', 'New pool of 10']);
    await userEvent.click(screen.getByRole('button', { name: 'Keep it' }));
    expect(await db.outbox.count()).toBe(3);

    await userEvent.click(screen.getByRole('button', { name: 'Discard' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Discard all 3' }));
    await screen.findByText('Nothing needs your attention.');
    expect(await db.outbox.count()).toBe(0);
    expect(await db.sites.count()).toBe(0);
  });
});

describe('ParkedEntries: what a refused change holds back', () => {
  it('counts what is not sent as the bar does and names the changes the refused one blocks', async () => {
    const { db, bff, engine } = setupEngine({
      backoff: { baseMs: 60_000, capMs: 60_000 },
      random: () => 0.9,
    });
    await queueRefusedWithDependents(db, bff);
    withEngine(
      engine,
      <>
        <SyncStatusBar />
        <ParkedEntries onFix={() => undefined} />
      </>,
    );
    engine.requestSync('test');
    await untilStatus(engine, REFUSED_WITH_DEPENDENTS);

    const bar = screen.getByRole('region', { name: 'Sync status' });
    await within(bar).findByText('4 changes not sent — 1 needs your attention');
    const parked = screen.getByRole('region', { name: 'Changes that need attention' });
    await within(parked).findByText(
      '4 changes not sent: 1 needs your attention, 2 wait on it, 1 waiting to send.',
    );
    const entry = (await within(parked).findByText('New site 100001 Site 1')).closest('li')!;
    expect(
      within(entry).getByText('It holds back 2 changes that depend on it:'),
    ).toBeInTheDocument();
    expect(
      within(within(entry).getByRole('list', { name: 'Held back by it' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['New collection 2026-07-14', 'New pool of 10']);
  });
});

describe('ParkedEntries: a create whose outcome the server cannot tell', () => {
  const TOLD = "May already be on the server: check the server's records before sending again";

  it('says to check the server, and Send again (after a warning) sends it under a new key with its dependents after it', async () => {
    const { db, bff, engine } = setupEngine();
    const s = await queueCreate(db, 'site', site(1));
    const c = await queueCreate(db, 'collection', collection('2026-07-14'), s.localId);
    bff.fault = (req) =>
      req.key === s.entryId
        ? {
            status: 409,
            code: 'create_outcome_unknown',
            message: 'This record may already be on the server: check before sending it again',
          }
        : null;
    await drain(engine);
    withEngine(engine, <ParkedEntries onFix={() => undefined} />);

    const entry = (await screen.findByText(TOLD)).closest('li')!;
    expect(within(entry).getByText('New site 100001 Site 1')).toBeInTheDocument();
    expect(
      within(entry).getByText('It holds back 1 change that depends on it:'),
    ).toBeInTheDocument();
    // Nothing in the record is wrong: the ways out are to send it again or to discard it.
    expect(within(entry).queryByRole('button', { name: 'Fix' })).not.toBeInTheDocument();
    expect(within(entry).getByRole('button', { name: 'Discard' })).toBeInTheDocument();

    bff.fault = () => null;
    await userEvent.click(within(entry).getByRole('button', { name: 'Send again' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send this record again?' });
    expect(
      within(dialog).getByText(
        'If the first one did reach the server, sending it again creates a second copy there. Check the server’s records first.',
      ),
    ).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep it waiting' }));
    await engine.settled();
    expect(bff.all('site')).toHaveLength(0);
    expect(await db.outbox.get(s.entryId)).toMatchObject({ state: 'parked' });

    await userEvent.click(within(entry).getByRole('button', { name: 'Send again' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Send this record again?' })).getByRole(
        'button',
        { name: 'Send again' },
      ),
    );
    await screen.findByText('Nothing needs your attention.');
    await engine.settled();
    const posts = bff.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.entity)).toEqual(['site', 'site', 'collection']);
    expect(posts[1].key).not.toBe(s.entryId);
    expect(bff.applied).toEqual([posts[1].key, c.entryId]);
    expect(bff.all('collection')[0].site).toBe(bff.all('site')[0].id);
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('ConflictResolver', () => {
  it('shows mine against theirs and sends only the values the user keeps', async () => {
    const { db, bff, engine } = setupEngine();
    const server = bff.seed('site', { ...site(1), comments: 'dry ditch', city: 'Davis' });
    const localId = await storeSynced(db, 'site', server, {
      ...site(1),
      comments: 'dry ditch',
      city: 'Davis',
    });
    const entryId = await queueUpdate(db, 'site', localId, {
      comments: 'standing water',
      city: 'Dixon',
    });
    bff.edit('site', server.id, { comments: 'pump installed', city: 'Woodland' });
    await drain(engine);
    const onDone = vi.fn();
    withEngine(engine, <ConflictResolver entryId={entryId} onDone={onDone} />);

    await screen.findByText('Mine: standing water');
    expect(screen.getByText('Theirs (server): pump installed')).toBeInTheDocument();
    const apply = screen.getByRole('button', { name: 'Keep these values' });
    expect(apply).toBeDisabled();
    await userEvent.click(screen.getByLabelText('Mine: standing water'));
    await userEvent.click(screen.getByLabelText('Theirs (server): Woodland'));
    await userEvent.click(apply);
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    await engine.settled();
    expect(bff.get('site', server.id)).toMatchObject({
      comments: 'standing water',
      city: 'Woodland',
    });
    expect(await db.sites.get(localId)).toMatchObject({
      syncState: 'synced',
      data: { city: 'Woodland' },
    });
  });
});

describe('accessibility', () => {
  it('the status bar, a parked entry and a conflict form have no axe violations', async () => {
    const { db, bff, engine } = setupEngine();
    const server = bff.seed('site', { ...site(1), comments: 'dry ditch' });
    const localId = await storeSynced(db, 'site', server, { ...site(1), comments: 'dry ditch' });
    const entryId = await queueUpdate(db, 'site', localId, { comments: 'standing water' });
    bff.edit('site', server.id, { comments: 'pump installed' });
    await queueCreate(db, 'site', site(2));
    bff.fault = (req) =>
      req.method === 'POST'
        ? { status: 422, code: 'validation_failed', message: 'name is required' }
        : null;
    await drain(engine);
    const { container } = withEngine(
      engine,
      <>
        <SyncStatusBar />
        <ParkedEntries onFix={() => undefined} onResolveConflict={() => undefined} />
        <ConflictResolver entryId={entryId} />
        <RecordSyncBadge state="failed" />
      </>,
    );
    await screen.findByText('name is required');
    await screen.findByText('Mine: standing water');
    const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  });
});
