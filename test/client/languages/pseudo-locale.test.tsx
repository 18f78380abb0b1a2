import { cleanup, render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { RawIntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignedInApp } from '../../../src/client/app/signed-in-app';
import { StorageLostBanner, SupersededBanner } from '../../../src/client/app/superseded-banner';
import { ChoosePasswordForm } from '../../../src/client/features/auth/choose-password-form';
import { SignInScreen } from '../../../src/client/features/auth/sign-in-screen';
import { SignInSheet } from '../../../src/client/features/auth/sign-in-sheet';
import { english, makeIntl } from '../../../src/client/lib/i18n';
import type { SessionInfo } from '../../../src/shared';
import { pseudoLocalise, untranslatedTexts } from './pseudo-locale';

/**
 * Every converted screen, drawn in a pseudo-locale (each message accented and bracketed): a text
 * on screen that is not pseudo-localised was written in the code, not taken from a catalogue.
 * Adding a converted screen is one line in SCREENS; `data` lists what is the person's data (names),
 * which no catalogue translates.
 */
const identity: SessionInfo = {
  user: { id: 7, username: `pseudo-${Math.random().toString(36).slice(2)}`, name: 'Sam' },
  agency: { id: 1, name: 'Demo Vector Control' },
  expiresAt: '2099-01-01T00:00:00.000Z',
};
const noop = () => undefined;
/** Signed in, at `path`: the layout (navigation, sync bar) around that screen. */
const signedInAt = (path: string) => () => {
  window.history.replaceState(null, '', path);
  return <SignedInApp identity={identity} onIdentity={noop} onSignOut={noop} />;
};

/**
 * `settle`: the signed-in app starts its sync and reads its database as it opens; the test waits
 * for that start-up to end before the unmount closes the database under it (else Dexie's
 * DatabaseClosedError surfaces as an unhandled rejection and fails the run).
 */
const SCREENS: Record<string, { draw: () => ReactElement; ready: string | RegExp; settle?: true }> =
  {
    'sign-in screen': { draw: () => <SignInScreen onSignedIn={noop} />, ready: 'textbox' },
    'Sign in again sheet': {
      draw: () => <SignInSheet open username="demo-tech" onSignedIn={noop} onLater={noop} />,
      ready: 'dialog',
    },
    'choose-password step': {
      draw: () => (
        <ChoosePasswordForm
          username="demo-tech"
          temporaryPassword="temporary-pass"
          onSignedIn={noop}
          onBack={noop}
        />
      ),
      ready: 'form',
    },
    'another-tab banner': { draw: () => <SupersededBanner />, ready: 'button' },
    'storage-lost banner': { draw: () => <StorageLostBanner />, ready: 'button' },
    'Settings, with the navigation and the sync bar': {
      draw: signedInAt('/settings'),
      ready: 'combobox',
      settle: true,
    },
  };
const data = [
  'Trapline',
  'English',
  'Español',
  'demo-tech',
  identity.user.username,
  identity.agency.name,
];

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  // The user's database is not deleted: the signed-in app's sync may still be writing to it after
  // the unmount (a DatabaseClosedError then surfaced as an unhandled rejection on a loaded run),
  // and its name is this file's own (a random username), in this worker's in-memory IndexedDB.
});

describe('the pseudo-locale', () => {
  const intl = makeIntl('en-XA', pseudoLocalise(english));

  it.each(Object.entries(SCREENS))(
    '%s shows no text outside the catalogues',
    async (_, screenDef) => {
      // Offline: no request reaches anything, the screens show what they show without a network.
      vi.stubGlobal(
        'fetch',
        vi.fn(async () => {
          throw new TypeError('Failed to fetch');
        }),
      );
      const { container } = render(
        <RawIntlProvider value={intl}>{screenDef.draw()}</RawIntlProvider>,
      );
      await screen.findAllByRole(screenDef.ready as string, {}, { timeout: 10_000 });
      // The sync bar's first counts and Settings' storage facts come a moment later.
      await screen.findAllByText(/⟦/);
      expect(untranslatedTexts(document.body, data)).toEqual([]);
      expect(container.textContent).toMatch(/⟦/);
      // Offline, the first sync try fails and waits for its retry: nothing is left in flight.
      if (screenDef.settle) await new Promise((r) => setTimeout(r, 2_000));
    },
  );
});
