import { resolve } from 'node:path';
import { createLogger, loadConfigFromFile } from 'vite';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

// Field trial (issue 35): every build and test run began with Vite's "(!) Your Vite config uses
// features that are unsupported by `configLoader: 'native'`" (an import without its extension),
// the first lines a new user read after `npm start` built the app.
describe('vite.config.ts', () => {
  it('loads without a warning', async () => {
    const warnings: string[] = [];
    const logger = createLogger('info');
    logger.warn = (msg) => void warnings.push(msg);
    logger.warnOnce = (msg) => void warnings.push(msg);
    const loaded = await loadConfigFromFile(
      { command: 'build', mode: 'production' },
      resolve(ROOT, 'vite.config.ts'),
      ROOT,
      'info',
      logger,
    );
    expect(loaded?.config).toBeTruthy();
    expect(warnings).toEqual([]);
  }, 60_000);
});
