import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** Root of the checkout (this file lives in test/e2e/harness/). */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export const DIST_DIR = join(ROOT, 'dist');

/** Screenshots and other artefacts of a run (git-ignored). */
export const OUTPUT_DIR = join(ROOT, 'test', '.output');
