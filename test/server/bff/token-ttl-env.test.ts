import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { appRequest } from './helpers/bff-stack';
import { cookieFrom } from './helpers/http';
import { killSpawned, spawnMain, type SpawnedMain } from '../../helpers/spawned-main';
import { migratedDataDir } from '../../helpers/migrated-data-dir';

const dataDir = migratedDataDir('trapline-ttl-');
const PASSWORD = 'Demo-Passw0rd-for-ttl';
let started: SpawnedMain | undefined;
afterAll(async () => {
  await killSpawned(started);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('TRAPLINE_TOKEN_TTL_S from the environment of npm start', () => {
  it('ends the sign-in after that many seconds with reauth_required, and signing in again resumes in the same browser', async () => {
    started = spawnMain({
      TRAPLINE_DATA_DIR: dataDir,
      TRAPLINE_DEMO_PASSWORD: PASSWORD,
      TRAPLINE_TOKEN_TTL_S: '2',
    });
    const api = appRequest(await started.url());
    // One cookie jar, as a browser keeps it: each Set-Cookie replaces the cookie.
    let jar = '';
    const signIn = async () => {
      const res = await api('/api/session', {
        method: 'POST',
        cookie: jar,
        body: { username: 'demo-tech', password: PASSWORD },
      });
      expect(res.status).toBe(200);
      jar = cookieFrom(res) ?? jar;
      return res.json<{ expiresAt: string }>();
    };
    const info = await signIn();
    expect(Date.parse(info.expiresAt) - Date.now()).toBeLessThan(3_000);
    expect((await api('/api/v1/site', { cookie: jar })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2_500));
    const expired = await api('/api/v1/site', { cookie: jar });
    expect(expired.status).toBe(401);
    expect(expired.json()).toMatchObject({ error: { code: 'reauth_required' } });
    await signIn();
    const resumed = await api('/api/v1/site', { cookie: jar });
    expect(resumed.status).toBe(200);
  }, 300_000);
});
