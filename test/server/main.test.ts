import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killSpawned, spawnMain, type SpawnedMain } from '../helpers/spawned-main';
import { cookieFrom, http } from './bff/helpers/http';

let main: SpawnedMain | undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'trapline-start-'));

afterAll(async () => {
  await killSpawned(main);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start (src/server/main.ts)', () => {
  it('starts records service and BFF, prints the URL and the demo sign-in, and stops on SIGTERM', async () => {
    main = spawnMain({ TRAPLINE_DATA_DIR: dataDir }, { npmStartCommand: true });
    const out = await main.waitFor(/Demo password: (\S+)/, 170_000);
    const url = /Trapline is running at (http:\/\/\S+)/.exec(out)?.[1] ?? '';
    const password = /Demo password: (\S+)/.exec(out)?.[1] ?? '';
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const shell = await http(`${url}/`);
    expect(shell.status, out).toBe(200);
    expect(shell.text).toContain('<div id="root">');
    const signIn = await http(`${url}/api/session`, {
      method: 'POST',
      headers: { 'x-csrf': '1', origin: url },
      body: { username: 'demo-tech', password },
    });
    expect(signIn.status, signIn.text).toBe(200);
    const sites = await http(`${url}/api/v1/site`, {
      headers: { 'x-csrf': '1', cookie: cookieFrom(signIn) ?? '' },
    });
    expect(sites.json<{ rows: unknown[] }>().rows.length).toBeGreaterThan(1);

    main.child.kill('SIGTERM');
    // With what it printed: a failure seen only under heavy load left no trace of why.
    expect(await main.exited, `exit code or signal; output:\n${main.output()}`).toBe(0);
  }, 200_000);
});
