import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { LANDSCAPE, PORTRAIT } from './browser';
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

/**
 * A main screen at both sizes every screen must work at (screenScreenshot each), landscape first;
 * the page is left at the portrait size.
 */
export async function screenScreenshots(page: Page, screen: string): Promise<void> {
  for (const [size, viewport] of [
    ['1280x800', LANDSCAPE],
    ['800x1280', PORTRAIT],
  ] as const) {
    await page.setViewportSize(viewport);
    await screenScreenshot(page, size, screen);
  }
}
