import type { Locator, Page } from 'playwright-core';
import { visible } from './field-actions';

/**
 * Signs in on a tablet whose browser is in Spanish (launchApp's `locale: 'es-MX'`), by the
 * Spanish words of the sign-in form, and waits for the app's navigation, which it returns.
 */
export async function signInInSpanish(
  page: Page,
  username: string,
  password: string,
): Promise<Locator> {
  const form = page.getByRole('form', { name: 'Iniciar sesión' });
  await visible(form, 30_000);
  await form.getByLabel('Usuario').fill(username);
  await form.getByLabel('Contraseña').fill(password);
  await form.getByRole('button', { name: 'Iniciar sesión' }).click();
  const nav = page.getByRole('navigation', { name: 'Principal' });
  await visible(nav, 30_000);
  return nav;
}
