/**
 * Cost of the BFF on the busiest write: POST of a collection (three abundance rows and a lure)
 * straight at the records service vs through the BFF (cookie session, CSRF check, session lookup,
 * header rewrite, keep-alive pool), and through the BFF with an Idempotency-Key (journal row
 * before and answer after). Same run, same file-backed PGlite, loopback only, autocannon with
 * 10 connections for 5 s each. Records service and BFF run in a child process (together, as
 * `npm start` runs them), so the load generator never shares their event loop.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { startBff } from '../../src/server/bff/app';
import { openDatabase } from '../../src/server/db/open-database';
import { buildRecords } from '../../src/server/records/app';
import {
  PRECISION_ID,
  SEX_ID,
  SPECIES_ID,
  TRAP_ID,
} from '../../src/server/records/seed/lookup-data';
import { seedDemoAgencies } from '../../src/server/records/seed/seed-demo-agencies';
import { seedLookups } from '../../src/server/records/seed/seed-lookups';
import { startRecordsThread } from '../../src/server/records/records-thread';
import { optimisingNodeArgs } from '../helpers/node-process';
import type { BenchRow } from './run';

const PASSWORD = 'bench-password';
const DURATION_S = 5;
const CONNECTIONS = 10;

export type Run = { rps: number; p50: number; p99: number; failed: number };

export async function load(
  url: string,
  headers: Record<string, string>,
  body: string | null,
  withKey: boolean,
  duration = DURATION_S,
): Promise<Run> {
  // A null body is a GET (the list); otherwise a POST of that body.
  const result = await autocannon({
    url,
    method: body === null ? 'GET' : 'POST',
    headers,
    ...(body === null ? {} : { body }),
    connections: CONNECTIONS,
    duration,
    ...(withKey
      ? {
          requests: [
            {
              setupRequest: (req) => ({
                ...req,
                headers: { ...req.headers, 'idempotency-key': randomUUID() },
              }),
            },
          ],
        }
      : {}),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.non2xx + result.errors,
  };
}

type ServerUrls = { recordsUrl: string; bffUrl: string };

/**
 * How the child runs the two servers: 'split' as `npm start` runs them on the embedded database
 * (the records service and its PGlite on a thread of their own, the BFF with its own PGlite for
 * sessions and the journal), or 'one-thread' (both on one thread and one PGlite, as before).
 */
export type ServerLayout = 'split' | 'one-thread';

/**
 * The child: records service and BFF on fresh file-backed PGlite, both on loopback port 0.
 * Prints their URLs as one JSON line, then serves until SIGTERM.
 */
async function serveForBench(layout: ServerLayout): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'trapline-bff-bench-'));
  let closeRecords: () => Promise<void>;
  let recordsUrl: string;
  let bffDb;
  if (layout === 'split') {
    const records = await startRecordsThread(
      {
        TRAPLINE_DATA_DIR: join(dir, 'records'),
        RECORDS_PORT: 0,
        HOST: '127.0.0.1',
        TRAPLINE_DEMO_PASSWORD: PASSWORD,
      },
      { logLevel: 'warn', demoData: false },
    );
    recordsUrl = records.url;
    closeRecords = () => records.close();
    bffDb = await openDatabase({ dataDir: join(dir, 'bff') });
  } else {
    const db = await openDatabase({ dataDir: dir });
    await seedLookups(db);
    await seedDemoAgencies(db, { password: PASSWORD });
    const records = await buildRecords({ db });
    recordsUrl = await records.listen({ port: 0, host: '127.0.0.1' });
    closeRecords = () => records.close();
    bffDb = db;
  }
  const bff = await startBff({ db: bffDb, upstreamUrl: recordsUrl, staticRoot: null });
  process.once('SIGTERM', () => {
    void (async () => {
      await bff.close();
      await closeRecords();
      await bffDb.close();
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    })();
  });
  const urls: ServerUrls = { recordsUrl, bffUrl: bff.url };
  console.log(JSON.stringify(urls));
}

/** Starts `serveForBench` in a child node process (tsx as loader) and waits for its URLs. */
export async function startServerProcess(
  layout: ServerLayout = 'split',
): Promise<ServerUrls & { stop: () => Promise<void> }> {
  const self = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, optimisingNodeArgs(self), {
    cwd: resolve(dirname(self), '../..'),
    env: { ...process.env, TRAPLINE_BENCH_SERVERS: layout },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((done) => child.on('exit', () => done()));
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((done, fail) => {
    lines.once('line', done);
    child.once('exit', (code) => fail(new Error(`bench servers exited ${code}`)));
  });
  const urls = JSON.parse(first) as ServerUrls;
  return {
    ...urls,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** What both benches need: a records token, a BFF session and a collection body on one site. */
export type BenchClients = {
  token: string;
  direct: Record<string, string>;
  viaBff: Record<string, string>;
  body: string;
};

export async function prepareClients(recordsUrl: string, bffUrl: string): Promise<BenchClients> {
  const login = await fetch(`${recordsUrl}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'demo-tech', password: PASSWORD }),
  });
  const { token } = (await login.json()) as { token: string };
  const direct = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const session = await fetch(`${bffUrl}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf': '1', origin: bffUrl },
    body: JSON.stringify({ username: 'demo-tech', password: PASSWORD }),
  });
  const cookie = (session.headers.get('set-cookie') ?? '').split(';', 1)[0];
  const viaBff = { cookie, 'x-csrf': '1', origin: bffUrl, 'content-type': 'application/json' };
  const site = await fetch(`${recordsUrl}/v1/site`, {
    method: 'POST',
    headers: direct,
    body: JSON.stringify({
      code: String(700000 + Math.floor(Math.random() * 99999)).padStart(6, '0'),
      name: 'Bench site',
      coordinate_precision: PRECISION_ID.gps,
      shape: { type: 'Point', coordinates: [-121.49, 38.58] },
    }),
  });
  const siteId = ((await site.json()) as { id: number }).id;
  const body = JSON.stringify({
    collection_date: '2026-07-14T06:30:00-07:00',
    num_trap: 1,
    trap: TRAP_ID.co2,
    trap_nights: 1,
    site: siteId,
    lures: [1],
    arthropods: [
      { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 42 },
      { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.male, num_count: 7 },
      { species: SPECIES_ID.cxPipiens, sex: SEX_ID.fMixed, num_count: 12 },
    ],
  });
  return { token, direct, viaBff, body };
}

export async function benchBffProxy(): Promise<BenchRow[]> {
  const servers = await startServerProcess();
  const { recordsUrl } = servers;
  const bff = { url: servers.bffUrl };
  try {
    const { direct, viaBff, body } = await prepareClients(recordsUrl, bff.url);
    const directUrl = `${recordsUrl}/v1/arthropod/collection`;
    const bffUrl = `${bff.url}/api/v1/arthropod/collection`;
    // Warm both paths (JIT, connection pools) before measuring.
    await load(directUrl, direct, body, false, 1);
    await load(bffUrl, viaBff, body, false, 1);
    const d = await load(directUrl, direct, body, false);
    const p = await load(bffUrl, viaBff, body, false);
    const k = await load(bffUrl, viaBff, body, true);
    return [
      { name: 'POST collection direct to records: throughput', value: d.rps, unit: 'req/s' },
      { name: 'POST collection direct to records: p99 latency', value: d.p99, unit: 'ms' },
      { name: 'POST collection through BFF: throughput', value: p.rps, unit: 'req/s' },
      { name: 'POST collection through BFF: p99 latency', value: p.p99, unit: 'ms' },
      {
        name: 'POST collection through BFF + Idempotency-Key: throughput',
        value: k.rps,
        unit: 'req/s',
      },
      {
        name: 'POST collection through BFF + Idempotency-Key: p99 latency',
        value: k.p99,
        unit: 'ms',
      },
      { name: 'BFF / direct throughput ratio', value: p.rps / d.rps, unit: 'x' },
      { name: 'BFF / direct p99 latency ratio', value: p.p99 / d.p99, unit: 'x' },
      { name: 'BFF + key / direct throughput ratio', value: k.rps / d.rps, unit: 'x' },
      { name: 'BFF + key / direct p99 latency ratio', value: k.p99 / d.p99, unit: 'x' },
      {
        name: 'non-2xx or errors (all runs)',
        value: d.failed + p.failed + k.failed,
        unit: 'responses',
      },
    ];
  } finally {
    await servers.stop();
  }
}

if (
  (process.env.TRAPLINE_BENCH_SERVERS === 'split' ||
    process.env.TRAPLINE_BENCH_SERVERS === 'one-thread') &&
  process.argv[1] &&
  import.meta.url === pathToFileURL(resolve(process.argv[1])).href
) {
  serveForBench(process.env.TRAPLINE_BENCH_SERVERS).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
