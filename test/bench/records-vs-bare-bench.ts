/**
 * Issue 13, table row 3: the records service against a bare Fastify app over the same PGlite
 * doing the reads and writes the work cannot do without (bare-records-reference.ts), for a
 * create of a collection (three abundance rows and a lure) and a list page of 50 collections.
 * Each server runs in a child process of its own on its own file-backed PGlite, seeded alike;
 * rounds alternate which goes first, so drift in the machine's load falls on both; medians.
 * The list rounds run first, on FILL collections made on each side alike: the create rounds
 * write as many rows as each side manages, and a list page over a table that grew more on one
 * side than the other is no comparison (the bare list counts every row on every page).
 * Goal: the service ≥ 0.8× the bare reference's throughput, both. `npm run bench -- bare`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { load, type Run } from './bff-proxy-bench';
import { collectionAtSite } from '../server/records/helpers/arthropod-fixtures';
import { optimisingNodeArgs } from '../helpers/node-process';
import type { BenchRow } from './run';

const ROUNDS = Number(process.env.BARE_BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BARE_BENCH_SECONDS ?? 3);
const FILL = Number(process.env.BARE_BENCH_FILL ?? 2000);

type Side = 'records' | 'bare';
type Started = { url: string; token: string; site: number; stop(): Promise<void> };

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

async function start(kind: Side): Promise<Started> {
  const script = join(dirname(fileURLToPath(import.meta.url)), 'bare-records-reference.ts');
  const dataDir = mkdtempSync(join(tmpdir(), `trapline-${kind}-`));
  const child = spawn(process.execPath, optimisingNodeArgs(script, kind, dataDir), {
    cwd: resolve(dirname(script), '../..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((done) => child.on('exit', () => done()));
  const first = await new Promise<string>((done, fail) => {
    createInterface({ input: child.stdout }).once('line', done);
    child.once('exit', (code) => fail(new Error(`${kind} server exited ${code}`)));
  });
  const info = JSON.parse(first) as Omit<Started, 'stop'>;
  return {
    ...info,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const bodyFor = (site: number) => JSON.stringify(collectionAtSite(site));

export async function benchRecordsVsBare(): Promise<BenchRow[]> {
  const servers = { records: await start('records'), bare: await start('bare') };
  const load1 = loadavg()[0];
  try {
    const headers = (s: Started) => ({
      authorization: `Bearer ${s.token}`,
      'content-type': 'application/json',
    });
    const cases = [
      { label: 'create collection', path: '/v1/arthropod/collection', post: true },
      {
        label: 'list page of 50',
        path: '/v1/arthropod/collection?page=1&pageSize=50',
        post: false,
      },
    ];
    // Warm both, and give each the same FILL collections for the list's pages.
    for (const side of ['records', 'bare'] as const) {
      const s = servers[side];
      const filled = await autocannon({
        url: `${s.url}${cases[0].path}`,
        method: 'POST',
        headers: headers(s),
        body: bodyFor(s.site),
        connections: 10,
        amount: FILL,
      });
      if (filled.non2xx + filled.errors > 0) throw new Error(`${side}: fill failed`);
      await load(`${s.url}${cases[1].path}`, headers(s), null, false, 1);
    }
    const runs = new Map<string, Run[]>();
    // Every list round, then every create round (see the top of this file).
    for (const c of [cases[1], cases[0]])
      for (let round = 0; round < ROUNDS; round++) {
        const order: Side[] = round % 2 ? ['bare', 'records'] : ['records', 'bare'];
        for (const side of order) {
          const s = servers[side];
          const r = await load(
            `${s.url}${c.path}`,
            headers(s),
            c.post ? bodyFor(s.site) : null,
            false,
            SECONDS,
          );
          runs.set(`${c.label}|${side}`, [...(runs.get(`${c.label}|${side}`) ?? []), r]);
        }
      }
    const rows: BenchRow[] = [];
    let failed = 0;
    for (const c of cases) {
      const rec = runs.get(`${c.label}|records`) ?? [];
      const bare = runs.get(`${c.label}|bare`) ?? [];
      failed += [...rec, ...bare].reduce((sum, r) => sum + r.failed, 0);
      const rRps = median(rec.map((r) => r.rps));
      const bRps = median(bare.map((r) => r.rps));
      rows.push(
        { name: `records ${c.label}: service (median)`, value: rRps, unit: 'req/s' },
        { name: `records ${c.label}: bare reference (median)`, value: bRps, unit: 'req/s' },
        {
          name: `records ${c.label}: service p99`,
          value: median(rec.map((r) => r.p99)),
          unit: 'ms',
        },
        { name: `records ${c.label}: bare p99`, value: median(bare.map((r) => r.p99)), unit: 'ms' },
        {
          name: `records ${c.label}: service / bare throughput`,
          value: rRps / bRps,
          unit: 'x',
          goal: { atLeast: 0.8 },
          note: `rounds ${rec.map((r) => r.rps.toFixed(0)).join(' ')} vs ${bare.map((r) => r.rps.toFixed(0)).join(' ')}`,
        },
      );
    }
    rows.push(
      { name: 'records vs bare: non-2xx or errors', value: failed, unit: 'responses' },
      { name: 'records vs bare: load average (1 min) at start', value: load1, unit: '' },
      { name: 'records vs bare: load average (1 min) at end', value: loadavg()[0], unit: '' },
    );
    return rows;
  } finally {
    await servers.records.stop();
    await servers.bare.stop();
  }
}
