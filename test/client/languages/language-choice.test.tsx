import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../../src/client/app/app';
import { openUserDb } from '../../../src/client/db/database';
import { clearIdentity, saveIdentity } from '../../../src/client/lib/identity';
import type { SessionInfo } from '../../../src/shared';

/** The language choice in Settings, as a technician meets it on a tablet with no network. */
const person = (username: string): SessionInfo => ({
  user: { id: 7, username, name: 'Sam' },
  agency: { id: 1, name: 'Demo Vector Control' },
  expiresAt: '2099-01-01T00:00:00.000Z',
});
const ana = person(`ana-${Math.random().toString(36).slice(2)}`);
const bo = person(`bo-${Math.random().toString(36).slice(2)}`);

function tabletLanguages(languages: string[]) {
  Object.defineProperty(navigator, 'languages', { value: languages, configurable: true });
}

beforeEach(() => {
  localStorage.clear();
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    }),
  );
});

afterEach(async () => {
  // Unmounted before its database goes (this hook runs before setup.ts's cleanup).
  cleanup();
  // Back to jsdom's own (the prototype's) languages.
  delete (navigator as { languages?: unknown }).languages;
  localStorage.clear();
  document.documentElement.lang = '';
  for (const p of [ana, bo]) await openUserDb({ agencyId: 1, username: p.user.username }).delete();
});

/** The app as it opens for `p` (remembered on the tablet) at `path`. */
function openApp(p: SessionInfo, path = '/settings') {
  saveIdentity(p);
  window.history.replaceState(null, '', path);
  return render(<App />);
}

describe('the language', () => {
  it('switched to Español in Settings shows Spanish, sets <html lang="es"> and stays after a reload', async () => {
    tabletLanguages(['en-US']);
    const first = openApp(ana);
    await screen.findByRole('heading', { name: 'Settings', level: 1 }, { timeout: 10_000 });
    expect(document.documentElement.lang).toBe('en');

    await userEvent.selectOptions(screen.getByLabelText('Language of the app'), 'es');

    expect(await screen.findByRole('heading', { name: 'Ajustes', level: 1 })).toBeVisible();
    expect(document.documentElement.lang).toBe('es');
    const nav = screen.getByRole('navigation', { name: 'Principal' });
    expect(within(nav).getByRole('link', { name: 'Nueva recolección' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Sincronizar ahora' })).toBeVisible();

    // A reload: the page starts again from what the tablet kept.
    first.unmount();
    document.documentElement.lang = '';
    openApp(ana);
    expect(
      await screen.findByRole('heading', { name: 'Ajustes', level: 1 }, { timeout: 10_000 }),
    ).toBeVisible();
    expect(document.documentElement.lang).toBe('es');
    expect(screen.getByLabelText('Idioma de la aplicación')).toHaveValue('es');
  });

  it('follows the tablet on Automatic: es-MX shows the sign-in screen in Spanish', async () => {
    tabletLanguages(['es-MX', 'en-US']);
    window.history.replaceState(null, '', '/');
    render(<App />);
    expect(
      await screen.findByRole('button', { name: 'Iniciar sesión' }, { timeout: 10_000 }),
    ).toBeVisible();
    expect(screen.getByLabelText('Usuario')).toBeVisible();
    expect(document.documentElement.lang).toBe('es');
  });

  it('says why a sign-in failed in Spanish too: no network on a Spanish tablet', async () => {
    tabletLanguages(['es-MX']);
    window.history.replaceState(null, '', '/');
    render(<App />);
    await userEvent.type(
      await screen.findByLabelText('Usuario', {}, { timeout: 10_000 }),
      'demo-tech',
    );
    await userEvent.type(screen.getByLabelText('Contraseña'), 'a-password');
    await userEvent.click(screen.getByRole('button', { name: 'Iniciar sesión' }));
    expect(
      await screen.findByText(
        'Sin conexión: para iniciar sesión se necesita red. Tu trabajo guardado se queda en esta tableta.',
      ),
    ).toBeVisible();
    // What was typed stays.
    expect(screen.getByLabelText('Usuario')).toHaveValue('demo-tech');
  });

  it('falls back to English for a tablet language the app does not ship', async () => {
    tabletLanguages(['fr-FR', 'de']);
    window.history.replaceState(null, '', '/');
    render(<App />);
    expect(
      await screen.findByRole('button', { name: 'Sign in' }, { timeout: 10_000 }),
    ).toBeVisible();
    expect(document.documentElement.lang).toBe('en');
  });

  it('is kept per user: English for one technician stays English after another chose Español', async () => {
    tabletLanguages(['es-MX']);
    const first = openApp(bo);
    await screen.findByRole('heading', { name: 'Ajustes', level: 1 }, { timeout: 10_000 });
    await userEvent.selectOptions(screen.getByLabelText('Idioma de la aplicación'), 'en');
    await screen.findByRole('heading', { name: 'Settings', level: 1 });
    first.unmount();
    clearIdentity(bo);

    const second = openApp(ana);
    await screen.findByRole('heading', { name: /Settings|Ajustes/, level: 1 });
    await userEvent.selectOptions(screen.getByLabelText(/Language of the app|Idioma/), 'es');
    await screen.findByRole('heading', { name: 'Ajustes', level: 1 });
    second.unmount();
    clearIdentity(ana);

    openApp(bo);
    expect(
      await screen.findByRole('heading', { name: 'Settings', level: 1 }, { timeout: 10_000 }),
    ).toBeVisible();
    expect(document.documentElement.lang).toBe('en');
  });
});
