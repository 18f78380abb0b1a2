import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import { launchApp, LANDSCAPE, type AppBrowser } from './harness/browser';
import { visible } from './harness/field-actions';
import { screenScreenshots } from './harness/screenshot';
import { startStack, type Stack } from './harness/stack';

/**
 * Chromium in Mexican Spanish: the app follows the browser's language from the first screen, and a
 * choice of English in Settings is kept across a reload. Screenshots of both screens at both sizes
 * (test/.output/screens/<size>/es-*.png).
 */
describe('a technician whose tablet is in Spanish', () => {
  let stack: Stack;
  let app: AppBrowser;

  beforeAll(async () => {
    await ensureAppBuilt();
    stack = await startStack();
    app = await launchApp(stack.appUrl, { locale: 'es-MX' });
  });

  afterAll(async () => {
    await app?.dispose();
    await stack?.stop();
  });

  it('signs in and reads Settings in Spanish, then switches to English for good', async () => {
    const page = app.page;
    const form = page.getByRole('form', { name: 'Iniciar sesión' });
    await visible(form, 30_000);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
    await screenScreenshots(page, 'es-sign-in');
    await page.setViewportSize(LANDSCAPE);

    await form.getByLabel('Usuario').fill('demo-tech');
    await form.getByLabel('Contraseña').fill(stack.password);
    await form.getByRole('button', { name: 'Iniciar sesión' }).click();
    const nav = page.getByRole('navigation', { name: 'Principal' });
    await visible(nav, 30_000);
    await nav.getByRole('link', { name: 'Ajustes' }).click();
    await visible(page.getByRole('heading', { name: 'Ajustes', level: 1 }));
    // The first pull has ended: the bar says when (not "checking…"), as a technician sees it.
    await visible(
      page
        .getByRole('region', { name: 'Estado de sincronización' })
        .getByText(/Última sincronización/),
      45_000,
    );
    await screenScreenshots(page, 'es-settings');
    await page.setViewportSize(LANDSCAPE);

    await page.getByLabel('Idioma de la aplicación').selectOption('en');
    await visible(page.getByRole('heading', { name: 'Settings', level: 1 }));
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.reload();
    await visible(page.getByRole('heading', { name: 'Settings', level: 1 }), 30_000);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await expect(page.getByLabel('Language of the app').inputValue()).resolves.toBe('en');
  });
});
