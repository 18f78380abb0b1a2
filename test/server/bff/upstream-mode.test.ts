import { readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecords, TEST_PASSWORD, type TestRecords } from '../helpers/records-app';
import { appRequest } from './helpers/bff-stack';
import { cookieFrom } from './helpers/http';
import { killSpawned, spawnMain, type SpawnedMain } from '../../helpers/spawned-main';
import { startTcpFaultProxy, type TcpFaultProxy } from './helpers/tcp-fault-proxy';
import { migratedDataDir } from '../../helpers/migrated-data-dir';

let records: TestRecords;
let proxy: TcpFaultProxy;
let started: SpawnedMain;
let url: string;
let recordsPort: number;
const dataDir = migratedDataDir('trapline-upstream-');

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** `pid` and every process under it, from /proc. */
function processTree(pid: number): number[] {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean),
  );
  return [pid, ...children.flatMap((c) => processTree(Number(c)))];
}

/**
 * The TCP ports the process `pid` and its children listen on, from /proc (their sockets' inodes
 * matched against the kernel's listening sockets). Asked of the process itself rather than of a
 * port: a port found free before the start may be taken by another test's server since.
 */
function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const p of processTree(pid)) {
    for (const fd of readdirSync(`/proc/${p}/fd`)) {
      const target = (() => {
        try {
          return readlinkSync(`/proc/${p}/fd/${fd}`);
        } catch {
          return ''; // closed meanwhile
        }
      })();
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode) inodes.add(inode);
    }
  }
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // local_address is ADDR:PORT in hex; st 0A is LISTEN; the inode is the tenth column.
      if (cols.length > 9 && cols[3] === '0A' && inodes.has(cols[9]))
        ports.add(parseInt(cols[1].split(':')[1], 16));
    }
  }
  return [...ports];
}

beforeAll(async () => {
  records = await buildTestRecords();
  await records.app.listen({ port: 0, host: '127.0.0.1' });
  proxy = await startTcpFaultProxy(
    `http://127.0.0.1:${(records.app.server.address() as AddressInfo).port}`,
  );
  recordsPort = await freePort();
  started = spawnMain({
    UPSTREAM_URL: proxy.url,
    TRAPLINE_DATA_DIR: dataDir,
    RECORDS_PORT: String(recordsPort),
  });
  url = await started.url();
}, 300_000);
afterAll(async () => {
  await killSpawned(started);
  await proxy?.close();
  await records?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function signIn(): Promise<string> {
  const res = await appRequest(url)('/api/session', {
    method: 'POST',
    body: { username: 'demo-tech', password: TEST_PASSWORD },
  });
  expect(res.status).toBe(200);
  return cookieFrom(res) ?? '';
}

describe('npm start with UPSTREAM_URL', () => {
  it('starts no records service and tells to sign in with the upstream account', async () => {
    expect(started.output()).toContain(`Sign in with your account on ${proxy.url}`);
    expect(started.output()).not.toMatch(/Demo (accounts|password)/);
    // The app's port only: no records service (on RECORDS_PORT or any other).
    expect(listeningPorts(started.child.pid as number)).toEqual([Number(new URL(url).port)]);
  });

  it('signs in at the upstream and proxies a list from it', async () => {
    const cookie = await signIn();
    const sites = await appRequest(url)('/api/v1/site', { cookie });
    expect(sites.status).toBe(200);
    expect(sites.json<{ rows: Array<{ name: string }> }>().rows.map((r) => r.name)).toContain(
      'Zero Site',
    );
    expect(proxy.seen.some((s) => s.method === 'GET' && s.path === '/v1/site')).toBe(true);
  });

  it('answers a request in flight at SIGTERM before it exits', async () => {
    const cookie = await signIn();
    const slow = proxy.arm('GET', '/v1/site', 'delay', 1_500);
    const inFlight = appRequest(url)('/api/v1/site', { cookie });
    await slow;
    started.child.kill('SIGTERM');
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(res.json<{ rows: unknown[] }>().rows.length).toBeGreaterThan(0);
    expect(await started.exited).toBe(0);
    expect(started.output()).toContain('SIGTERM: shutting down');
  });
});
