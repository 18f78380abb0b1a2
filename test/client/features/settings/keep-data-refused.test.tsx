import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SettingsScreen } from '../../../../src/client/features/settings/settings-screen';
import { renderScreen, tabletDb } from '../helpers/records';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A browser whose storage is not persistent and that answers a request for it with `granted`. */
function storageThatAnswers(granted: boolean) {
  let persisted = false;
  const persist = vi.fn(async () => {
    persisted = granted;
    return granted;
  });
  vi.stubGlobal('navigator', {
    ...navigator,
    storage: {
      persisted: async () => persisted,
      persist,
      estimate: async () => ({ usage: 5 * 1024 * 1024, quota: 500 * 1024 * 1024 }),
    },
  });
  return persist;
}

function renderSettings(db: Awaited<ReturnType<typeof tabletDb>>) {
  return renderScreen(
    db,
    <SettingsScreen
      username="demo-tech"
      agencyName="Demo Vector Control District"
      onSignOut={() => undefined}
      onRefreshLookups={async () => 'done'}
    />,
    '/settings',
  );
}

// Field trial (issue 35): "Keep data on this tablet" refused by the browser changed nothing on
// screen: the technician could not tell whether the tap had done anything.
describe('Settings: Keep data on this tablet', () => {
  it('says so when the browser refuses, and what to do instead', async () => {
    const persist = storageThatAnswers(false);
    const user = renderSettings(await tabletDb());
    await user.click(await screen.findByRole('button', { name: 'Keep data on this tablet' }));
    expect(persist).toHaveBeenCalledOnce();
    const said = await screen.findByText(/The browser refused to keep this tablet’s data/);
    // Announced, not only drawn: the tap's answer is read out.
    expect(said.closest('[role="status"]')).not.toBeNull();
    expect(screen.getByText(/Install Trapline to the home screen/)).toBeInTheDocument();
  });

  it('says the data is kept when the browser agrees', async () => {
    storageThatAnswers(true);
    const user = renderSettings(await tabletDb());
    await user.click(await screen.findByRole('button', { name: 'Keep data on this tablet' }));
    expect(await screen.findByText(/The browser will keep this tablet’s data/)).toBeInTheDocument();
    expect(screen.getByTestId('storage-persisted')).toHaveTextContent('Yes');
  });
});
