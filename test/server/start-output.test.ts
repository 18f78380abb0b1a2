import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { migratedDataDir } from '../helpers/migrated-data-dir';
import { killSpawned, spawnMain, type SpawnedMain } from '../helpers/spawned-main';
import { cookieFrom, http } from './bff/helpers/http';

const PASSWORD = 'start-output-demo-pass';
const dataDir = migratedDataDir('trapline-start-output-');
let main: SpawnedMain | undefined;

afterAll(async () => {
  await killSpawned(main);
  rmSync(dataDir, { recursive: true, force: true });
});

// Field trial (issue 35): after the friendly lines, `npm start` printed a JSON line for every
// request of every tablet in the same terminal, and the URL and password scrolled away.
describe('npm start in a terminal, LOG_LEVEL unset', () => {
  it('prints its friendly lines and then no line per request', async () => {
    // '' is unset for the environment parser: the default an operator gets.
    main = spawnMain({
      TRAPLINE_DATA_DIR: dataDir,
      TRAPLINE_DEMO_PASSWORD: PASSWORD,
      LOG_LEVEL: '',
    });
    const url = (await main.url()).replace(/\/$/, '');
    const signIn = await http(`${url}/api/session`, {
      method: 'POST',
      headers: { 'x-csrf': '1', origin: url },
      body: { username: 'demo-tech', password: PASSWORD },
    });
    expect(signIn.status).toBe(200);
    const cookie = cookieFrom(signIn) ?? '';
    for (const path of ['/api/session', '/api/v1/site', '/api/lookups', '/']) {
      const res = await http(`${url}${path}`, { headers: { 'x-csrf': '1', cookie } });
      expect(res.status, path).toBe(200);
    }
    main.child.kill('SIGTERM');
    expect(await main.exited).toBe(0);

    const lines = main
      .output()
      .split('\n')
      .filter((l) => l.trim() !== '');
    expect(lines.join('\n')).toContain(`Trapline is running at ${url}`);
    // Nothing but the people-facing lines: no request, no JSON log record.
    expect(lines.filter((l) => l.trimStart().startsWith('{'))).toEqual([]);
    expect(lines.join('\n')).not.toContain('/api/v1/site');
  }, 200_000);
});
