import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killSpawned, spawnMain, type SpawnedMain } from '../helpers/spawned-main';
import { cookieFrom, http } from './bff/helpers/http';

const dataDir = mkdtempSync(join(tmpdir(), 'trapline-restart-'));
let main: SpawnedMain | undefined;

afterAll(async () => {
  await killSpawned(main);
  rmSync(dataDir, { recursive: true, force: true });
});

/** `npm start`'s own command line on the data directory, stopped as Ctrl-C stops it. */
async function start(): Promise<string> {
  main = spawnMain({ TRAPLINE_DATA_DIR: dataDir }, { npmStartCommand: true });
  return (await main.url()).replace(/\/$/, '');
}

async function stopWithCtrlC(): Promise<void> {
  main?.child.kill('SIGINT');
  expect(await main?.exited, main?.output()).toBe(0);
}

// Field trial (issue 35): "signed out once after restarting npm start on the same data (not on a
// second restart)". A first start on a fresh data directory (generated password, session key
// written, both databases made) and two restarts: the tablet's cookie keeps working each time.
describe('npm start restarted on the same data', () => {
  it('keeps the tablet signed in, after the first restart as after the second', async () => {
    let url = await start();
    const password = /Demo password: (\S+)/.exec(main!.output())?.[1] ?? '';
    const signIn = await http(`${url}/api/session`, {
      method: 'POST',
      headers: { 'x-csrf': '1', origin: url },
      body: { username: 'demo-tech', password },
    });
    expect(signIn.status, signIn.text).toBe(200);
    const cookie = cookieFrom(signIn) ?? '';
    await stopWithCtrlC();

    for (const restart of ['first', 'second']) {
      url = await start();
      const session = await http(`${url}/api/session`, { headers: { 'x-csrf': '1', cookie } });
      expect(session.status, `${restart} restart: ${session.text}`).toBe(200);
      const sites = await http(`${url}/api/v1/site`, { headers: { 'x-csrf': '1', cookie } });
      expect(sites.status, `${restart} restart: ${sites.text}`).toBe(200);
      await stopWithCtrlC();
    }
  }, 400_000);
});
