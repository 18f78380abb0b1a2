import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killSpawned, spawnMain, stopServer, type SpawnedMain } from '../helpers/spawned-main';
import { cookieFrom, http } from './bff/helpers/http';

/**
 * `npm start`'s own command line (spawnMain's npmStartCommand) on one data directory: a first
 * start on a fresh directory (generated password, session key written, both databases made), then
 * two restarts on it. One first start serves both tests: it is the slowest start there is (two
 * initdb runs, every migration, the seed: ~12 CPU-s), and the restart test needs one before it.
 */
let main: SpawnedMain | undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'trapline-start-'));

afterAll(async () => {
  await killSpawned(main);
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(): Promise<string> {
  main = spawnMain({ TRAPLINE_DATA_DIR: dataDir }, { npmStartCommand: true });
  return (await main.url()).replace(/\/$/, '');
}

/** The technician's cookie from the first start, for the restarts (set by the first test). */
let cookie = '';

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
    cookie = cookieFrom(signIn) ?? '';
    const sites = await http(`${url}/api/v1/site`, { headers: { 'x-csrf': '1', cookie } });
    expect(sites.json<{ rows: unknown[] }>().rows.length).toBeGreaterThan(1);

    // With what it printed: a failure seen only under heavy load left no trace of why.
    expect(
      await stopServer(main, 'SIGTERM'),
      `exit code or signal; output:\n${main.output()}`,
    ).toBe(0);
  }, 200_000);

  // Field trial (issue 35): "signed out once after restarting npm start on the same data (not on
  // a second restart)". The tablet signed in on the first start above; each restart is stopped
  // as Ctrl-C stops it, and the tablet's cookie keeps working after the first as after the second.
  it('keeps the tablet signed in, after the first restart as after the second', async () => {
    expect(cookie, 'the first start (the test above) signed the tablet in').not.toBe('');
    for (const restart of ['first', 'second']) {
      const url = await start();
      const session = await http(`${url}/api/session`, { headers: { 'x-csrf': '1', cookie } });
      expect(session.status, `${restart} restart: ${session.text}`).toBe(200);
      const sites = await http(`${url}/api/v1/site`, { headers: { 'x-csrf': '1', cookie } });
      expect(sites.status, `${restart} restart: ${sites.text}`).toBe(200);
      expect(await stopServer(main!, 'SIGINT'), main!.output()).toBe(0);
    }
  }, 400_000);
});
