import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from './paths';

export type AxeViolation = {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
};

let axeSource: string | null = null;

/** Runs axe-core (node_modules/axe-core/axe.min.js) on the whole page. */
export async function runAxe(page: Page): Promise<AxeViolation[]> {
  axeSource ??= await readFile(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
  // Evaluated over the DevTools protocol rather than as a <script>: the app's CSP forbids inline
  // scripts, and the test must not weaken it.
  const present = await page.evaluate(() => 'axe' in window);
  if (!present) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
}

/** Violations a user would be blocked by: axe's 'serious' and 'critical'. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  return (await runAxe(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** A readable one-line-per-violation summary for assertion messages. */
export function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    )
    .join('\n');
}
