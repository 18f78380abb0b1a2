import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchRow } from './run';
import { checkStored, closeClients, runCollectionLoad } from '../server/scale-out/collection-load';
import { startScaleOutStack } from '../server/scale-out/scale-out-stack';

/**
 * Issue 13 item 5, the full load: 50 technicians × 100 collections each, all at once, through
 * real `npm start` processes, with retries, dropped responses and concurrent duplicates sent to
 * two BFFs (test/server/scale-out/collection-load.ts). Run on the embedded database (one
 * process), and on PostgreSQL with one process and with two (`npm start -- --workers 2`). Each
 * setup is run twice: with faults (errors, duplicates and repeated numbers must be 0) and
 * without (the plain throughput, compared between 1 and 2 processes).
 *
 * PostgreSQL: `TRAPLINE_BENCH_DATABASE_URL` (an admin URL: the bench creates and drops its own
 * database), or else a throwaway cluster from Debian's `initdb` when there is one (as `.ci/run`
 * does); otherwise those rows are left out and the table says so.
 */
const PLAN = { technicians: 50, collectionsEach: 100 };

export async function benchScaleOut(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const postgres = process.env.TRAPLINE_BENCH_DATABASE_URL
    ? { url: process.env.TRAPLINE_BENCH_DATABASE_URL, stop: () => undefined }
    : await throwawayCluster();
  const setups = [
    { name: 'PGlite, 1 process', workers: 1, adminUrl: undefined as string | undefined },
    ...(postgres
      ? [
          { name: 'PostgreSQL, 1 process', workers: 1, adminUrl: postgres.url },
          { name: 'PostgreSQL, 2 processes', workers: 2, adminUrl: postgres.url },
        ]
      : []),
  ];
  const plainRate = new Map<string, number>();
  try {
    for (const setup of setups) {
      for (const faults of [true, false]) {
        const stack = await startScaleOutStack({
          workers: setup.workers,
          adminUrl: setup.adminUrl,
        });
        try {
          const load = await runCollectionLoad({ bffUrls: stack.bffUrls, ...PLAN, faults });
          const stored = await checkStored(stack.bffUrls[0], load);
          const duplicates = [...stored.rowsPerMarker.values()].filter((ids) => ids.length > 1);
          const missing = load.keys - stored.rowsPerMarker.size;
          const rate = load.keys / load.seconds;
          const what = faults ? 'with retries, drops and duplicates' : 'each sent once';
          rows.push({
            name: `scale-out ${setup.name}, ${what}: collections/s`,
            value: rate,
            unit: '/s',
            note: `${load.keys} collections, ${load.requests} requests in ${load.seconds.toFixed(1)} s; ${load.inFlight} answered in flight, ${load.replayed} replayed`,
          });
          rows.push({
            name: `scale-out ${setup.name}, ${what}: errors + duplicates + missing + repeated numbers + wrong ids`,
            value:
              load.errors.length +
              duplicates.length +
              missing +
              stored.repeatedNumbers.length +
              stored.wrongIds.length,
            unit: 'count',
            goal: { atMost: 0 },
            note: load.errors.slice(0, 3).join('; ') || undefined,
          });
          if (!faults) plainRate.set(setup.name, rate);
        } finally {
          await closeClients();
          await stack.close();
        }
      }
    }
  } finally {
    postgres?.stop();
  }
  const one = plainRate.get('PostgreSQL, 1 process');
  const two = plainRate.get('PostgreSQL, 2 processes');
  if (one && two) {
    rows.push({
      name: 'scale-out PostgreSQL throughput, 2 processes / 1 process',
      value: two / one,
      unit: 'x',
      note: 'reported, no goal: on a 2-core machine the processes share the cores with PostgreSQL and the load generator',
    });
  } else {
    rows.push({
      name: 'scale-out on PostgreSQL: not run (no TRAPLINE_BENCH_DATABASE_URL, no initdb)',
      value: 0,
      unit: '',
    });
  }
  return rows;
}

/** A PostgreSQL cluster in a temporary folder, owned by `postgres` as initdb requires of root. */
async function throwawayCluster(): Promise<{ url: string; stop(): void } | null> {
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql') : [];
  const bin = versions
    .sort((a, b) => Number(a) - Number(b))
    .map((v) => `/usr/lib/postgresql/${v}/bin`)
    .filter((b) => existsSync(`${b}/initdb`))
    .pop();
  if (!bin || process.getuid?.() !== 0) return null;
  const dir = mkdtempSync(join(tmpdir(), 'trapline-bench-pg-'));
  const port = await freePort();
  const asPostgres = (cmd: string) =>
    execFileSync('su', ['postgres', '-c', cmd], { stdio: ['ignore', 'ignore', 'inherit'] });
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
  chownSync(dir, uid, uid);
  asPostgres(`${bin}/initdb -D ${dir}/data -A trust -U postgres`);
  asPostgres(
    `${bin}/pg_ctl -D ${dir}/data -o '-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200' -w start`,
  );
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      asPostgres(`${bin}/pg_ctl -D ${dir}/data -m fast stop`);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
