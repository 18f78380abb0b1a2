import { readFileSync, rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { migratedDataDir } from '../helpers/migrated-data-dir';
import { killSpawned, spawnMain, type SpawnedMain } from '../helpers/spawned-main';
import { http } from './bff/helpers/http';

/**
 * `npm start` runs the records service in a process of its own (issue 36 N1: on a thread of the
 * BFF's process, a BFF out of heap took it down mid-request). One dying never takes the other
 * with it unannounced: a records service that dies is reported and started again while the BFF
 * serves on; a BFF process that dies leaves the records service to close in order and end.
 */
let main: SpawnedMain | undefined;
const dataDir = migratedDataDir('trapline-records-process-');

afterAll(async () => {
  await killSpawned(main);
  rmSync(dataDir, { recursive: true, force: true });
});

/** The processes `pid` started (Linux /proc). */
function childrenOf(pid: number): number[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(done: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The records service's /v1 lookups answer (with a token: 401 means it is up). */
const recordsAnswers = async (url: string) => (await http(`${url}/v1/species`)).status === 401;

describe('the records service under npm start', () => {
  it('runs in a process of its own, restarted when it dies, and ends when the BFF process has gone', async () => {
    main = spawnMain({ TRAPLINE_DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    const url = await main.url();
    const bff = main.child.pid as number;
    const [records] = childrenOf(bff);
    expect(records, 'a child process of the BFF').toBeGreaterThan(0);
    const recordsUrl = /"Server listening at (http:\/\/[^"]+)"/.exec(main.output())?.[1] ?? '';
    expect(await recordsAnswers(recordsUrl)).toBe(true);

    // The records service dies: the BFF says so, serves on, and starts it again where it was.
    process.kill(records, 'SIGKILL');
    await main.waitFor(/The records service stopped unexpectedly \(SIGKILL\); starting it again/);
    expect((await http(`${url}/api/health`, { headers: { 'x-csrf': '1' } })).status).toBe(200);
    await main.waitFor(/The records service is back at /, 120_000);
    expect(await recordsAnswers(recordsUrl)).toBe(true);
    const [restarted] = childrenOf(bff);
    expect(restarted).not.toBe(records);

    // The BFF's process dies at once (as when its heap runs out): the records service closes.
    main.child.kill('SIGKILL');
    await main.exited;
    await until(() => !alive(restarted), 60_000);
  }, 300_000);
});
