import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { OUTPUT_DIR } from './paths';

/** Saves a full-page PNG as test/.output/<name>.png (git-ignored) and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(OUTPUT_DIR, { recursive: true });
  const path = join(OUTPUT_DIR, `${name.replace(/[^a-z0-9-_]+/gi, '-')}.png`);
  await page.screenshot({ path, fullPage: true, animations: 'disabled' });
  return path;
}

/** Saves a full-page PNG of a main screen as test/.output/screens/<size>/<screen>.png. */
export async function screenScreenshot(page: Page, size: string, screen: string): Promise<string> {
  const dir = join(OUTPUT_DIR, 'screens', size);
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${screen.replace(/[^a-z0-9-_]+/gi, '-')}.png`);
  await page.screenshot({ path, fullPage: true, animations: 'disabled' });
  return path;
}
