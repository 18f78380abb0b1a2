import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import { launchApp, type AppBrowser } from './harness/browser';
import { visible } from './harness/field-actions';
import { signInInSpanish } from './harness/spanish-tablet';
import { inspectScreen } from './harness/inspect-screen';
import { recordsApi } from './harness/records-api';
import { startStack, type Stack } from './harness/stack';

/** Buttons and links of `scope` whose words do not fit inside them (Spanish runs ~25% longer). */
async function overflowing(scope: Locator): Promise<string[]> {
  return scope.evaluate((root) =>
    [...root.querySelectorAll<HTMLElement>('button, a.button')]
      .filter((el) => el.offsetParent !== null)
      .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
      .map((el) => el.textContent ?? ''),
  );
}

/** Every button and link of `scope` at least 48 px high (a gloved thumb's target). */
async function smallTargets(scope: Locator): Promise<string[]> {
  return scope.evaluate((root) =>
    [...root.querySelectorAll<HTMLElement>('button, a.button')]
      .filter((el) => el.offsetParent !== null)
      .filter((el) => el.getBoundingClientRect().height < 47.5)
      .map((el) => el.textContent ?? ''),
  );
}

/** The screen at both sizes (screenshots, axe), its buttons' words fitting inside them. */
async function inspectSpanish(page: Page, name: string, scope: Locator): Promise<void> {
  await inspectScreen(page, name, async () => {
    expect(await overflowing(scope), `${name}: words overflowing their button`).toEqual([]);
    expect(await smallTargets(scope), `${name}: targets under 48 px`).toEqual([]);
  });
}

/**
 * Chromium in Mexican Spanish logs a field day end to end: a new site typed in, a collection at
 * it with two abundance rows and a lure, after a save refused in Spanish for a missing trap type;
 * it reaches the records service. Screenshots of the map and the collection form at both sizes
 * (test/.output/screens/<size>/es-*.png), every button's words inside the button.
 */
describe('a technician whose tablet is in Spanish logs a collection', () => {
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

  it('signs in, places a site, and saves a collection, all in Spanish', async () => {
    const page = app.page;
    const nav = await signInInSpanish(page, 'demo-tech', stack.password);
    await visible(page.getByRole('heading', { name: /^Hola, / }));
    await visible(
      page
        .getByRole('list', { name: 'Colectas de hoy' })
        .or(page.getByText('Todavía no hay colectas hoy.')),
    );

    // The map of sites, in Spanish.
    await nav.getByRole('link', { name: 'Sitios' }).click();
    await visible(page.getByRole('heading', { name: 'Sitios', level: 1 }));
    await visible(
      page.getByRole('region', { name: 'Mapa de sitios' }).locator('.leaflet-container'),
    );
    await visible(page.getByRole('heading', { name: 'Dónde estoy' }));
    await inspectSpanish(page, 'es-sites-map', page.locator('main'));

    // A new site, typed in.
    await page.getByRole('link', { name: 'Nuevo sitio' }).click();
    const siteForm = page.getByRole('form', { name: 'Sitio' });
    await visible(siteForm);
    await siteForm.getByLabel('Código de sitio').fill('731201');
    await siteForm.getByLabel('Nombre del sitio').fill('Canal La Peña');
    await siteForm.getByLabel('Latitud').fill('38.61');
    await siteForm.getByLabel('Longitud').fill('-121.42');
    await siteForm.getByLabel('Precisión de las coordenadas').selectOption({ index: 1 });
    await siteForm.getByRole('button', { name: 'Guardar sitio' }).click();
    await visible(page.getByRole('heading', { name: '731201 Canal La Peña' }));

    // The collection form: a save with no trap type is refused in Spanish, the typing kept.
    await page.getByRole('link', { name: 'Nueva colecta aquí' }).click();
    const form = page.getByRole('form', { name: 'Colecta' });
    await visible(form);
    await form.getByRole('button', { name: 'Agregar fila' }).click();
    await form.getByLabel('Especie (fila 1)').selectOption({ label: 'Cx tarsalis' });
    await form.getByLabel('Sexo (fila 1)').selectOption({ label: 'F-Mixed' });
    await form.getByLabel('Conteo (fila 1)').fill('57');
    await form.getByRole('button', { name: 'Guardar colecta' }).click();
    await visible(form.getByText('Tipo de trampa: es obligatorio'));
    await expect(form.getByLabel('Conteo (fila 1)').inputValue()).resolves.toBe('57');

    await form.getByLabel('Tipo de trampa').selectOption({ index: 1 });
    await form.getByRole('button', { name: 'Agregar fila' }).click();
    await form.getByLabel('Especie (fila 2)').selectOption({ label: 'Cx pipiens' });
    await form.getByLabel('Sexo (fila 2)').selectOption({ label: 'F-Mixed' });
    await form.getByLabel('Conteo (fila 2)').fill('1204');
    await form.getByRole('group', { name: 'Atrayentes' }).getByRole('checkbox').first().check();
    await form.getByLabel('Comentarios').fill('Noche con viento');
    // The total in Mexico's digits: 1,261.
    await expect(form.getByTestId('abundance-total').textContent()).resolves.toBe('1,261');
    await inspectSpanish(page, 'es-collection-form', form);

    await form.getByRole('button', { name: 'Guardar colecta' }).click();
    await visible(page.getByRole('link', { name: 'Armar lotes' }));
    await visible(page.getByRole('heading', { name: /^Colecta / }));
    await visible(
      page.getByRole('table').getByRole('row', { name: /Cx pipiens\s+F-Mixed\s+1,204/ }),
    );
    await inspectSpanish(page, 'es-collection-detail', page.locator('main'));

    // Sent: the bar says so in Spanish, and the records service holds the collection.
    await visible(
      page
        .getByRole('region', { name: 'Estado de sincronización' })
        .getByText('Todos los cambios enviados'),
      45_000,
    );
    const api = await recordsApi(stack.recordsUrl, stack.password);
    const [site] = (await api.sites('query[code]=731201')).rows;
    expect(site).toMatchObject({ name: 'Canal La Peña' });
    const collections = (await api.collections(`query[site]=${String(site.id)}`)).rows;
    expect(collections).toHaveLength(1);
    expect(collections[0]).toMatchObject({ comments: 'Noche con viento' });
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
  });
});
