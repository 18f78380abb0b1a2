import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { describeViolations, seriousViolations } from './axe';
import { LANDSCAPE, PORTRAIT } from './browser';
import { screenScreenshot } from './screenshot';

/**
 * The screen as it is at 1280x800 and 800x1280: axe-clean (no serious or critical violation) at
 * each size, and a screenshot of each in test/.output/screens/<size>/<name>.png; `atEachSize`
 * adds a screen's own checks at each size. Leaves the page in landscape.
 */
export async function inspectScreen(
  page: Page,
  name: string,
  atEachSize?: (viewport: { width: number; height: number }) => Promise<void>,
): Promise<void> {
  for (const [size, viewport] of [
    ['1280x800', LANDSCAPE],
    ['800x1280', PORTRAIT],
  ] as const) {
    await page.setViewportSize(viewport);
    // A frame and a little more: layout and the map settle at the new size.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 150))),
    );
    const violations = await seriousViolations(page);
    expect(violations, `${name} ${size}:\n${describeViolations(violations)}`).toEqual([]);
    await screenScreenshot(page, size, name);
    await atEachSize?.(viewport);
  }
  await page.setViewportSize(LANDSCAPE);
}
