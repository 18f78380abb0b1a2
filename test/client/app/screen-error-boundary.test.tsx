import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useLocation } from 'wouter';
import { AppErrorBoundary } from '../../../src/client/app/error-boundaries';
import { Layout } from '../../../src/client/app/layout';
import { databaseName, TraplineDb } from '../../../src/client/db/database';
import { DbContext } from '../../../src/client/db/db-context';
import { SyncEngineProvider } from '../../../src/client/features/sync-status';
import { pageNavigation } from '../../../src/client/ui/error-boundary/page-navigation';
import { queueCreate, site } from '../sync/helpers/outbox-factory';
import { setupEngine } from '../sync/helpers/setup-engine';

/** A screen with a bug: throws while rendering. */
function BrokenScreen(): never {
  throw new Error('Cannot read properties of undefined (reading "code")');
}

function Screens({ broken }: { broken: boolean }) {
  return broken ? <BrokenScreen /> : <h1>Start</h1>;
}

let reload: ReturnType<typeof vi.spyOn>;
let logged: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  window.history.replaceState(null, '', '/sites');
  reload = vi.spyOn(pageNavigation, 'reload').mockImplementation(() => undefined);
  // React and the boundary log the error: keep the run's output readable, and check what is logged.
  logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('screen error boundary', () => {
  it('shows what happened and the unsent count in place of a broken screen, and keeps the header and navigation', async () => {
    const { db, engine } = setupEngine();
    await queueCreate(db, 'site', site(1));
    await queueCreate(db, 'site', site(2));
    await queueCreate(db, 'site', site(3));
    const before = await db.outbox.toArray();

    render(
      <DbContext.Provider value={db}>
        <SyncEngineProvider engine={engine}>
          <Layout>
            <Screens broken />
          </Layout>
        </SyncEngineProvider>
      </DbContext.Provider>,
    );

    const alert = await screen.findByRole('alert');
    const heading = within(alert).getByRole('heading', {
      name: 'Something went wrong showing this screen',
    });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(alert).toHaveTextContent('What is saved on this tablet is safe.');
    await within(alert).findByText(/3 unsent changes are kept on this tablet/);
    expect(within(alert).getByRole('button', { name: 'Reload' })).toBeInTheDocument();
    expect(within(alert).getByRole('button', { name: 'Go to start' })).toBeInTheDocument();
    // Never a stack trace or the raw message in front of the technician.
    expect(alert).not.toHaveTextContent(/reading|BrokenScreen|Error|:\d+:\d+/);

    // The header (sync status) and the navigation stay usable.
    expect(screen.getByText('Trapline')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Sync status' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();

    // Logged with the component stack, for whoever looks at the tablet's console.
    const call = logged.mock.calls.find((args: unknown[]) =>
      String(args[0]).includes('Trapline: a screen failed'),
    );
    expect(call).toBeDefined();
    expect(String(call?.join(' '))).toMatch(/BrokenScreen/);

    // Read only: the outbox is exactly as it was.
    expect(await db.outbox.toArray()).toEqual(before);
  });

  it('reloads the page on Reload', async () => {
    const { db, engine } = setupEngine();
    render(
      <DbContext.Provider value={db}>
        <SyncEngineProvider engine={engine}>
          <Layout>
            <Screens broken />
          </Layout>
        </SyncEngineProvider>
      </DbContext.Provider>,
    );
    const alert = await screen.findByRole('alert');
    await within(alert).findByText(/Nothing is waiting to be sent/);
    await userEvent.click(within(alert).getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('goes to the start on "Go to start", and shows screens again once they render', async () => {
    const { db, engine } = setupEngine();
    // The bug shows only on /sites: the start page renders.
    function Switcher() {
      const [location] = useLocation();
      return <Screens broken={location === '/sites'} />;
    }
    render(
      <DbContext.Provider value={db}>
        <SyncEngineProvider engine={engine}>
          <Layout>
            <Switcher />
          </Layout>
        </SyncEngineProvider>
      </DbContext.Provider>,
    );
    const alert = await screen.findByRole('alert');
    await userEvent.click(within(alert).getByRole('button', { name: 'Go to start' }));
    expect(window.location.pathname).toBe('/');
    expect(await screen.findByRole('heading', { name: 'Start' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('app error boundary', () => {
  it('says what is saved is safe, with the signed-in user’s unsent count, when the whole app fails', async () => {
    const identity = {
      user: { id: 7, username: `tech-${Math.random().toString(36).slice(2)}`, name: 'Sam' },
      agency: { id: 1, name: 'Demo Vector Control' },
      expiresAt: '2099-01-01T00:00:00.000Z',
    };
    localStorage.setItem('trapline.identity', JSON.stringify(identity));
    const db = new TraplineDb(databaseName({ agencyId: 1, username: identity.user.username }));
    await queueCreate(db, 'site', site(1));
    db.close();

    render(
      <AppErrorBoundary>
        <BrokenScreen />
      </AppErrorBoundary>,
    );
    const alert = await screen.findByRole('alert');
    await within(alert).findByText(/1 unsent change is kept on this tablet/);
    expect(within(alert).getByRole('heading')).toHaveFocus();
    await userEvent.click(within(alert).getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledTimes(1);

    const reopened = new TraplineDb(
      databaseName({ agencyId: 1, username: identity.user.username }),
    );
    await reopened.delete();
  });

  it('never creates a database when the signed-in user has none on this tablet', async () => {
    const username = `nobody-${Math.random().toString(36).slice(2)}`;
    localStorage.setItem(
      'trapline.identity',
      JSON.stringify({
        user: { id: 8, username, name: null },
        agency: { id: 1, name: 'Demo Vector Control' },
        expiresAt: '2099-01-01T00:00:00.000Z',
      }),
    );
    render(
      <AppErrorBoundary>
        <BrokenScreen />
      </AppErrorBoundary>,
    );
    const alert = await screen.findByRole('alert');
    await within(alert).findByText(/Nothing is waiting to be sent/);
    const names = (await indexedDB.databases()).map((d) => d.name);
    expect(names).not.toContain(databaseName({ agencyId: 1, username }));
  });
});
