import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import { launchApp, LANDSCAPE, type AppBrowser } from './harness/browser';
import { visible } from './harness/field-actions';
import { inspectScreen } from './harness/inspect-screen';
import { signInInSpanish } from './harness/spanish-tablet';
import { screenScreenshots } from './harness/screenshot';
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
    await screenScreenshots(page, 'es-reports');
    await page.setViewportSize(LANDSCAPE);

    await nav.getByRole('link', { name: 'Oficina' }).click();
    await visible(page.getByRole('heading', { name: 'Oficina', level: 1 }));
    const people = page.getByRole('list', { name: 'Personas' });
    await visible(people, 30_000);
    await visible(people.getByText('Supervisor').first());
    await visible(page.getByRole('form', { name: 'Agregar una persona' }));
    await visible(page.getByRole('heading', { name: 'Tokens de la agencia' }));
    await screenScreenshots(page, 'es-office-people');
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

  it('reads the problems of a site file in Spanish, each from the values the BFF sent', async () => {
    const page = app.page;
    await page.goto('/office/import');
    await visible(page.getByRole('heading', { name: 'Importar sitios', level: 1 }));
    const file = [
      'code,name,latitude,longitude,coordinate_precision',
      '420001,Bueno,38.5,-121.5,1', // row 2
      '420002,Invertido,-121.5,38.5,1', // row 3: latitude and longitude swapped
      '420001,Otra vez,38.5,-121.5,1', // row 4: the code of row 2
      "420004,Grados,38°30'N,-121.5,1", // row 5: not a number
      '4205,Sin ceros,38.5,-121.5,1', // row 6: leading zeros lost
      '420006,,38.5,-121.5,1', // row 7: no name
    ].join('\n');
    await page.getByLabel('Elegir un archivo CSV o GeoJSON').setInputFiles({
      name: 'sitios.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(file, 'utf8'),
    });
    const check = await visible(page.getByRole('region', { name: 'Revisión de sitios.csv' }));
    const table = check.getByRole('table', { name: 'Problemas en el archivo' });
    const rows = table.getByRole('row');
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(6);
    const problems = async () =>
      Promise.all([1, 2, 3, 4, 5].map(async (i) => (await rows.nth(i).innerText()).trim()));
    const said = await problems();
    expect(said[0]).toMatch(/columnas de latitud y longitud están invertidas \(¿latitud 38\.5,/);
    expect(said[1]).toContain('El código de sitio 420001 también está en la fila 2');
    expect(said[2]).toContain("“38°30'N” no es un número");
    expect(said[3]).toContain('tiene menos de 6 dígitos');
    expect(said[4]).toContain('La celda “name” está vacía');
    // None of the BFF's English sentences reaches the table.
    const text = (await table.textContent()) ?? '';
    for (const english of ['look swapped', 'is also on row', 'is not a number', 'is required'])
      expect(text).not.toContain(english);
    await inspectScreen(page, 'es-office-import-problems');
  });
});
