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
