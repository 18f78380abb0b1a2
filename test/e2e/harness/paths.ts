import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** Root of the checkout (this file lives in test/e2e/harness/). */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * The built app the stack serves. TRAPLINE_E2E_DIST points at another, already built one (for
 * instance an older version, to see a new check fail against it); that one is never rebuilt.
 */
export const DIST_DIR = process.env.TRAPLINE_E2E_DIST ?? join(ROOT, 'dist');

/** Screenshots and other artefacts of a run (git-ignored). */
export const OUTPUT_DIR = join(ROOT, 'test', '.output');
