/**
 * Site import at district scale (issue 37): a 20,000-row CSV through the BFF of `npm start` (its
 * own process, the records service in another, a file-backed PGlite as a district runs it).
 * Prints:
 * - the dry run (read the agency's sites, check every row, write nothing);
 * - the import itself, against the goal of 30 s;
 * - the same file again (every row unchanged: a list read and the check, no write);
 * - the reference, measured in the same run on the same server: the same number of site creates
 *   sent straight to the records service one POST /v1/site each (as the import did before
 *   POST /v1/site/batch, and still does against a hosted service without it), 8 at a time, by an
 *   ideal client (no file, no check, no list read): `import / straight creates` is what batching
 *   saves on this machine.
 * `SITE_IMPORT_ROWS` overrides the size.
 */
import { request } from 'undici';
import { spawnMain, killSpawned } from '../helpers/spawned-main';
import { migratedDataDir } from '../helpers/migrated-data-dir';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { IMPORT_CONCURRENCY } from '../../src/server/bff/site-import/write-plan';
import { BATCHES_IN_FLIGHT } from '../../src/server/bff/site-import/write-batches';
import { MAX_SITE_BATCH } from '../../src/shared/schemas/site-batch';
import type { BenchRow } from './run';

const ROWS = Number(process.env.SITE_IMPORT_ROWS ?? 20_000);
const PASSWORD = 'bench-password-site-import';
const GOAL_S = 30;

function csv(first: number, n: number): string {
  const lines = ['code,name,latitude,longitude,coordinate_precision,active_date,comments'];
  for (let i = 0; i < n; i++) {
    const lat = (38 + (i % 1000) / 2000).toFixed(5);
    const lon = (-121.8 + Math.floor(i / 1000) / 50).toFixed(5);
    lines.push(`${first + i},"Trap ${i}, block ${i % 97}",${lat},${lon},1,2026-03-01,imported`);
  }
  return lines.join('\r\n');
}

async function signIn(url: string, path: string, body: object) {
  const res = await request(`${url}${path}`, {
    method: 'POST',
    headers: { origin: url, 'x-csrf': '1', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${text}`);
  const cookie = [res.headers['set-cookie']]
    .flat()
    .find((c) => c?.startsWith('__Host-trapline='))
    ?.split(';', 1)[0];
  return { cookie, json: JSON.parse(text) as { token?: string } };
}

async function importFile(url: string, cookie: string, body: string, dryRun = false) {
  const started = performance.now();
  const res = await request(`${url}/api/import/sites${dryRun ? '?dry_run=true' : ''}`, {
    method: 'POST',
    headers: { origin: url, 'x-csrf': '1', cookie, 'content-type': 'text/csv' },
    body,
    headersTimeout: 600_000,
    bodyTimeout: 600_000,
  });
  const text = await res.body.text();
  const s = (performance.now() - started) / 1000;
  if (res.statusCode !== 200) throw new Error(`import: ${res.statusCode} ${text.slice(0, 400)}`);
  return { s, report: JSON.parse(text) as { created: number; unchanged: number; errors: [] } };
}

/** The same creates straight to the records service, IMPORT_CONCURRENCY at a time. */
async function straightCreates(recordsUrl: string, token: string, first: number, n: number) {
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const res = await request(`${recordsUrl}/v1/site`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          code: String(first + i),
          name: `Trap ${i}, block ${i % 97}`,
          coordinate_precision: 1,
          shape: {
            type: 'Point',
            coordinates: [-121.8 + Math.floor(i / 1000) / 50, 38 + (i % 1000) / 2000],
          },
          active_date: '2026-03-01',
          comments: 'imported',
        }),
      });
      await res.body.text();
      if (res.statusCode !== 201) throw new Error(`straight create: ${res.statusCode}`);
    }
  };
  await Promise.all(Array.from({ length: IMPORT_CONCURRENCY }, worker));
  return (performance.now() - started) / 1000;
}

export async function benchSiteImport(): Promise<BenchRow[]> {
  const dataDir = migratedDataDir('trapline-site-import-bench-');
  // A port of our own for the records service, so the reference can reach it straight.
  const recordsPort = await freePort();
  const main = spawnMain({
    TRAPLINE_DATA_DIR: dataDir,
    TRAPLINE_DEMO_PASSWORD: PASSWORD,
    RECORDS_PORT: String(recordsPort),
  });
  try {
    const url = await main.url();
    const recordsUrl = `http://127.0.0.1:${recordsPort}`;
    const { cookie } = await signIn(url, '/api/session', {
      username: 'demo-manager',
      password: PASSWORD,
    });
    if (!cookie) throw new Error('no session cookie');
    const file = csv(500_000, ROWS);

    const dry = await importFile(url, cookie, file, true);
    const bffPid = main.child.pid!;
    const cpuBefore = processCpu(bffPid);
    const real = await importFile(url, cookie, file);
    const cpuAfter = processCpu(bffPid);
    if (real.report.created !== ROWS) throw new Error(`created ${real.report.created} of ${ROWS}`);
    const again = await importFile(url, cookie, file);
    if (again.report.unchanged !== ROWS) throw new Error(`unchanged ${again.report.unchanged}`);

    const rows: BenchRow[] = [
      { name: `site import dry run, ${ROWS} rows`, value: dry.s, unit: 's' },
      {
        name: `site import through the BFF, ${ROWS} rows`,
        value: real.s,
        unit: 's',
        // The goal is for 20,000 rows; a run of another size carries none.
        ...(ROWS === 20_000 ? { goal: { atMost: GOAL_S } } : {}),
        note: `${Math.round(ROWS / real.s)} sites/s, batches of ${MAX_SITE_BATCH} (POST /v1/site/batch), ${BATCHES_IN_FLIGHT} in flight`,
      },
      { name: `site import again (all unchanged)`, value: again.s, unit: 's' },
    ];
    if (cpuBefore && cpuAfter) {
      const bff = cpuAfter.self - cpuBefore.self;
      const records = cpuAfter.children - cpuBefore.children;
      rows.push(
        { name: 'site import CPU: BFF process', value: bff, unit: 's' },
        { name: 'site import CPU: records service process', value: records, unit: 's' },
        {
          name: 'site import on an idle 2-core machine (estimate)',
          value: Math.max(bff, records),
          unit: 's',
          note:
            'the busier process’s CPU: the two run on their own cores and overlap, so an idle ' +
            'machine takes about this long; a loaded one (see load average) takes the wall time above',
        },
      );
    }
    const token = (
      await signIn(recordsUrl, '/login', { username: 'demo-manager', password: PASSWORD })
    ).json.token!;
    const straight = await straightCreates(recordsUrl, token, 600_000, ROWS);
    rows.push(
      { name: `straight creates to the records service, ${ROWS}`, value: straight, unit: 's' },
      { name: 'site import / straight creates', value: real.s / straight, unit: '×' },
    );
    return rows;
  } finally {
    await killSpawned(main);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU seconds of a process and of its child processes (the records service), from /proc. */
function processCpu(pid: number): { self: number; children: number } | null {
  const stat = (p: string) => {
    const fields = readFileSync(`/proc/${p}/stat`, 'latin1').split(')').at(-1)!.trim().split(' ');
    return {
      ppid: Number(fields[1]),
      cpu: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND,
    };
  };
  try {
    const self = stat(String(pid)).cpu;
    let children = 0;
    for (const p of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      try {
        const s = stat(p);
        if (s.ppid === pid) children += s.cpu;
      } catch {
        // ended while read
      }
    }
    return { self, children };
  } catch {
    return null;
  }
}
