/**
 * `npm run dev`: records service + BFF (API only), then the Vite dev server with hot reload,
 * whose /api proxy (vite.config.ts) points at this BFF. Ctrl-C stops all three.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { closeOnSignals } from './close-on-signals';
import { loadEnvOrExit, ROOT, startStack } from './main';

async function dev(): Promise<void> {
  const env = loadEnvOrExit();
  const stack = await startStack(env, { staticRoot: null });
  // The Vite binary itself (not npx), so the PID we stop is the server's.
  const vite = spawn(join(ROOT, 'node_modules', '.bin', 'vite'), ['--host', env.HOST], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, TRAPLINE_DEV_BFF: stack.bff.url },
  });
  const stopAll = async () => {
    if (vite.exitCode === null) vite.kill('SIGTERM');
    await stack.close();
  };
  vite.on('exit', (code) => {
    void stack.close().finally(() => process.exit(code ?? 0));
  });
  closeOnSignals(stopAll);
  console.log(
    `\nBFF (API) at ${stack.bff.url}; open the Vite URL printed below.\n${stack.banner.split('\n').slice(1).join('\n')}\n`,
  );
}

dev().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
