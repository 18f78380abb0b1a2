import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import { launchApp, LANDSCAPE, PORTRAIT, type AppBrowser } from './harness/browser';
import { visible } from './harness/field-actions';
import { signInInSpanish } from './harness/spanish-tablet';
import { screenScreenshot } from './harness/screenshot';
import { startStack, type Stack } from './harness/stack';

/**
 * A manager whose tablet is in Mexican Spanish opens Reports and the Office: both in Spanish,
 * with no English left on them. Screenshots at both sizes (test/.output/screens/<size>/es-*.png).
 */
describe('a manager whose tablet is in Spanish', () => {
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

  it('reads Reports and the Office people in Spanish', async () => {
    const page = app.page;
    const nav = await signInInSpanish(page, 'demo-manager', stack.password);

    await nav.getByRole('link', { name: 'Reportes' }).click();
    await visible(page.getByRole('heading', { name: 'Reportes', level: 1 }));
    await visible(
      page.getByRole('heading', { name: 'Abundancia frente al promedio de cinco años' }),
    );
    await visible(page.getByRole('group', { name: 'Reporte' }));
    await visible(page.getByRole('heading', { name: 'Descargar los datos de la agencia' }));
    await visible(page.getByTestId('report-computed'), 60_000);
    expect(await page.getByTestId('report-computed').textContent()).toMatch(/^Calculado el /);
    for (const [size, viewport] of [
      ['1280x800', LANDSCAPE],
      ['800x1280', PORTRAIT],
    ] as const) {
      await page.setViewportSize(viewport);
      await screenScreenshot(page, size, 'es-reports');
    }
    await page.setViewportSize(LANDSCAPE);

    await nav.getByRole('link', { name: 'Oficina' }).click();
    await visible(page.getByRole('heading', { name: 'Oficina', level: 1 }));
    const people = page.getByRole('list', { name: 'Personas' });
    await visible(people, 30_000);
    await visible(people.getByText('Supervisor').first());
    await visible(page.getByRole('form', { name: 'Agregar una persona' }));
    await visible(page.getByRole('heading', { name: 'Tokens de la agencia' }));
    for (const [size, viewport] of [
      ['1280x800', LANDSCAPE],
      ['800x1280', PORTRAIT],
    ] as const) {
      await page.setViewportSize(viewport);
      await screenScreenshot(page, size, 'es-office-people');
    }
    // Nothing on the Office screen is left in English.
    const text = (await page.locator('main').textContent()) ?? '';
    for (const english of [
      'People',
      'Add a person',
      'Agency tokens',
      'Reset password',
      'Technician',
    ])
      expect(text).not.toContain(english);
  });
});
