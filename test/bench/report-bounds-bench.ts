/**
 * The worst report requests a technician can send (issue 36 N1, N2) on a district of 100,000
 * collections (13 seasons grown by SQL, `growSeasons`, with ~50,000 pools and their tests), with
 * `npm start`'s own topology: src/server/main.ts in a process of its own (the BFF), the records
 * service in its child process. While each request runs, a colleague of another role lists the
 * sites every 100 ms (`GET /api/v1/site`, as the issue measured); the BFF process's RSS is
 * sampled every 25 ms from /proc. Prints, per request: its answer, its time, the BFF's peak RSS
 * (goal < 1 GB) and the colleague's slowest wait (goal ≤ 1 s), with beside it the slowest wait of
 * each hop alone (a BFF request that asks the upstream nothing, and the same site list asked of
 * the records service directly), so the figure says where the wait is spent.
 *
 * Requests, each on lists not yet read (a write first drops them, so each pays the full read):
 * - the issue's: CollectionDate, separated by species and trap, all 13 years, 100 made-up
 *   species (was 440,600 rows and 1.46 GB; 1,270 names exhausted the heap);
 * - every species of the lookups over the same groups (over the row budget);
 * - the largest report the budget allows of that kind (every date of the last seven seasons by
 *   species and trap, the species in the records);
 * - 24 write-then-report pairs whose clients leave (was 24 full reads, 3.95 GB).
 * `REPORT_BOUNDS_PER_SEASON` overrides the size (default 7,700 a season: 100,100 collections).
 * `REPORT_BOUNDS_CPU_PROF=<dir>` writes V8 CPU profiles of the BFF's process (each of its threads)
 * into that directory when it ends (what the BFF's time went on: open them in Chrome DevTools).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { openDatabase } from '../../src/server/db/open-database';
import { refreshStatistics } from '../../src/server/db/refresh-statistics';
import { seedDemoAgencies } from '../../src/server/records/seed/seed-demo-agencies';
import { seedLookups } from '../../src/server/records/seed/seed-lookups';
import { optimisingNodeArgs } from '../helpers/node-process';
import { growSeasons } from './grow-seasons';
import type { BenchRow } from './run';

const PASSWORD = 'bench-password-long-enough';
const SEASONS = 13;
const PER_SEASON = Number(process.env.REPORT_BOUNDS_PER_SEASON ?? 7_700);
const RSS_GOAL_MB = 1024;
const WAIT_GOAL_MS = 1000;

type Answer = { status: number; bytes: number; text: string };

/** The BFF's process and its children's RSS (MB), from /proc. */
function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** A port free on loopback now (the records service's, so the bench can reach it directly). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

async function startMain(
  dataDir: string,
  recordsPort: number,
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const profileDir = process.env.REPORT_BOUNDS_CPU_PROF;
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(process.execPath, [...profile, ...optimisingNodeArgs('src/server/main.ts')], {
    env: {
      ...process.env,
      TRAPLINE_DATA_DIR: dataDir,
      PORT: '0',
      RECORDS_PORT: String(recordsPort),
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const m = /Trapline is running at (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${out}`)));
  });
  return { child, url, output: () => out };
}

export async function benchReportBounds(): Promise<BenchRow[]> {
  const season = new Date().getUTCFullYear();
  const years = Array.from({ length: SEASONS }, (_, i) => season - SEASONS + 1 + i);
  const dataDir = mkdtempSync(join(tmpdir(), 'trapline-report-bounds-'));
  let main: ChildProcess | undefined;
  try {
    let started = performance.now();
    const db = await openDatabase({ dataDir });
    await seedLookups(db);
    await seedDemoAgencies(db, { password: PASSWORD });
    const grown = await growSeasons(db, years, PER_SEASON);
    await refreshStatistics(db);
    await db.close();
    process.stderr.write(
      `  grown ${JSON.stringify(grown)} in ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
    );

    const recordsPort = await freePort();
    const recordsUrl = `http://127.0.0.1:${recordsPort}`;
    const running = await startMain(dataDir, recordsPort);
    main = running.child;
    const { url } = running;
    const pid = main.pid as number;
    const signIn = async (username: string) => {
      const res = await request(`${url}/api/session`, {
        method: 'POST',
        headers: { origin: url, 'x-csrf': '1', 'content-type': 'application/json' },
        body: JSON.stringify({ username, password: PASSWORD }),
      });
      await res.body.text();
      const raw = res.headers['set-cookie'];
      const cookie = (Array.isArray(raw) ? raw : [raw ?? ''])
        .find((c) => c.startsWith('__Host-trapline='))
        ?.split(';', 1)[0];
      if (res.statusCode !== 200 || !cookie) throw new Error(`sign-in ${username} failed`);
      return cookie;
    };
    const tech = await signIn('demo-tech');
    const manager = await signIn('demo-manager');
    // The colleague's token at the records service itself: where the wait is spent (the BFF or
    // the records service) shows as the slowest wait of each hop alone.
    const recordsToken = await (async () => {
      const res = await request(`${recordsUrl}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'demo-manager', password: PASSWORD }),
      });
      const answer = (await res.body.json()) as { token?: string };
      if (res.statusCode !== 200 || !answer.token) throw new Error('records login failed');
      return answer.token;
    })();
    const get = async (path: string, cookie: string, signal?: AbortSignal): Promise<Answer> => {
      // A connection per request: a keep-alive connection the server has just closed is not a
      // figure of the reports.
      const res = await request(`${url}${path}`, {
        headers: { origin: url, 'x-csrf': '1', cookie },
        signal,
        reset: true,
      });
      const text = await res.body.text();
      return { status: res.statusCode, bytes: Buffer.byteLength(text), text };
    };
    const write = async () => {
      const res = await request(`${url}/api/v1/arthropod/collection`, {
        method: 'POST',
        reset: true,
        headers: { origin: url, 'x-csrf': '1', cookie: tech, 'content-type': 'application/json' },
        body: JSON.stringify({
          collection_date: `${season}-07-15`,
          num_trap: 1,
          trap: 1,
          trap_nights: 1,
          location: {
            shape: { type: 'Point', coordinates: [-121.49, 38.58] },
            coordinate_precision: 1,
          },
        }),
      });
      await res.body.text();
      if (res.statusCode !== 201) throw new Error(`write: ${res.statusCode}`);
    };

    /** Runs `work` while sampling the BFF's RSS and a colleague's site list every 100 ms. */
    const measured = async (work: () => Promise<string>) => {
      let peak = rssMb(pid);
      let recordsPeak = 0;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssMb(pid));
        for (const c of childPids(pid)) recordsPeak = Math.max(recordsPeak, rssMb(c));
      }, 25);
      let done = false;
      /** Asks every 100 ms until the work is done; the slowest wait (ms). */
      const every100ms = async (ask: () => Promise<number>) => {
        let slowest = 0;
        while (!done) {
          const at = performance.now();
          const status = await ask();
          if (status !== 200) throw new Error(`colleague: ${status}`);
          slowest = Math.max(slowest, performance.now() - at);
          await new Promise((r) => setTimeout(r, 100));
        }
        return slowest;
      };
      const colleague = Promise.all([
        every100ms(async () => (await get('/api/v1/site?pageSize=100', manager)).status),
        // The BFF alone (a session, no upstream request): its event loop's share of the wait.
        every100ms(async () => (await get('/api/config', manager)).status),
        // The records service alone, as the BFF asks it.
        every100ms(async () => {
          const res = await request(`${recordsUrl}/v1/site?pageSize=100`, {
            headers: { authorization: `Bearer ${recordsToken}` },
            reset: true,
          });
          await res.body.text();
          return res.statusCode;
        }),
      ]);
      colleague.catch(() => undefined); // awaited after the work: not unhandled meanwhile
      const at = performance.now();
      let what: string;
      try {
        what = await work();
      } finally {
        done = true;
        clearInterval(sampler);
      }
      const [wait, bffWait, recordsWait] = await colleague;
      return { ms: performance.now() - at, peak, recordsPeak, what, wait, bffWait, recordsWait };
    };

    const allYears = years.map((y) => `year=${y}`).join('&');
    const made = Array.from({ length: 100 }, (_, i) => `species=zz${i}`).join('&');
    const lookups = JSON.parse((await get('/api/lookups', tech)).text) as {
      species: Array<{ display_name: string | null }>;
    };
    const everySpecies = lookups.species
      .flatMap((s) => s.display_name ?? [])
      .map((s) => `species=${encodeURIComponent(s)}`)
      .join('&');
    const byDate = 'interval=CollectionDate&separate_by=species&separate_by=trap';
    const lastSeven = years
      .slice(-7)
      .map((y) => `year=${y}`)
      .join('&');
    const single = (path: string) => async () => {
      await write();
      const res = await get(path, tech);
      const rows = res.status === 200 ? (JSON.parse(res.text) as { count: number }).count : 0;
      return `HTTP ${res.status}, ${rows} rows, ${(res.bytes / 1e6).toFixed(1)} MB`;
    };
    const cases: Array<[string, () => Promise<string>]> = [
      [
        "the issue's: 100 made-up species, every date, 13 years",
        single(`/api/reports/abundance?${byDate}&${allYears}&${made}`),
      ],
      [
        'every lookup species, every date, 13 years',
        single(`/api/reports/abundance?${byDate}&${allYears}&${everySpecies}`),
      ],
      [
        'the largest the budget allows: every date of 7 seasons',
        single(`/api/reports/abundance?${byDate}&${lastSeven}`),
      ],
      [
        '24 write-then-report pairs, clients leaving',
        async () => {
          for (let i = 0; i < 24; i++) {
            const left = new AbortController();
            const report = get(`/api/reports/abundance?${allYears}`, tech, left.signal).catch(
              () => null,
            );
            await write();
            await new Promise((r) => setTimeout(r, 50));
            left.abort();
            await report;
          }
          // Then one that stays: it must be answered, from one read.
          const res = await get(`/api/reports/abundance?${allYears}`, tech);
          return `24 abandoned, then HTTP ${res.status}`;
        },
      ],
    ];
    const rows: BenchRow[] = [
      { name: 'report bounds data: collections', value: grown.collections, unit: 'rows' },
      { name: 'report bounds data: pools', value: grown.pools, unit: 'rows' },
    ];
    for (const [name, work] of cases) {
      started = performance.now();
      let m: Awaited<ReturnType<typeof measured>>;
      try {
        m = await measured(work);
      } catch (err) {
        const how = main.exitCode ?? main.signalCode;
        process.stderr.write(
          `  ${name} failed (BFF process ${how === null ? 'running' : `ended: ${how}`}):\n` +
            `${running.output().slice(-3000)}\n`,
        );
        throw err;
      }
      process.stderr.write(`  ${name}: ${m.what}, ${m.ms.toFixed(0)} ms\n`);
      rows.push(
        { name: `report bounds, ${name}: time`, value: m.ms, unit: 'ms', note: m.what },
        {
          name: `report bounds, ${name}: BFF peak RSS`,
          value: m.peak,
          unit: 'MB',
          goal: { atMost: RSS_GOAL_MB },
          note: `records service's process peak: ${m.recordsPeak.toFixed(0)} MB`,
        },
        {
          name: `report bounds, ${name}: another user's slowest wait`,
          value: m.wait,
          unit: 'ms',
          goal: { atMost: WAIT_GOAL_MS },
          note:
            `of which the BFF alone (GET /api/config): ${m.bffWait.toFixed(0)} ms; the records ` +
            `service alone (GET /v1/site): ${m.recordsWait.toFixed(0)} ms`,
        },
      );
    }
    return rows;
  } finally {
    if (main && main.exitCode === null) {
      const exited = new Promise((r) => main?.once('exit', r));
      main.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}
