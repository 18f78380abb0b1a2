/**
 * Throughput of the records service's busiest write, POST /v1/arthropod/collection (with three
 * abundance rows and a lure), over real HTTP with autocannon: on file-backed PGlite, and on
 * PostgreSQL when TRAPLINE_BENCH_DATABASE_URL names a server (a fresh database is created on it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import type { Database } from '../../src/server/db/database';
import { openDatabase } from '../../src/server/db/open-database';
import { buildRecords } from '../../src/server/records/app';
import { seedDemoAgencies } from '../../src/server/records/seed/seed-demo-agencies';
import { seedLookups } from '../../src/server/records/seed/seed-lookups';
import {
  PRECISION_ID,
  SEX_ID,
  SPECIES_ID,
  TRAP_ID,
} from '../../src/server/records/seed/lookup-data';
import type { BenchRow } from './run';

const PASSWORD = 'bench-password';
const DURATION_S = 5;
const CONNECTIONS = 10;

async function measure(db: Database, label: string): Promise<BenchRow[]> {
  await seedLookups(db);
  await seedDemoAgencies(db, { password: PASSWORD });
  const app = await buildRecords({ db });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const login = await fetch(`${address}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'demo-tech', password: PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const siteRes = await fetch(`${address}/v1/site`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        code: '700001',
        name: 'Bench site',
        coordinate_precision: PRECISION_ID.gps,
        shape: { type: 'Point', coordinates: [-121.49, 38.58] },
      }),
    });
    const site = (await siteRes.json()) as { id: number };
    const body = JSON.stringify({
      collection_date: '2026-07-14T06:30:00-07:00',
      num_trap: 1,
      trap: TRAP_ID.co2,
      trap_nights: 1,
      site: site.id,
      lures: [1],
      arthropods: [
        { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 42 },
        { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.male, num_count: 7 },
        { species: SPECIES_ID.cxPipiens, sex: SEX_ID.fMixed, num_count: 12 },
      ],
    });
    const result = await autocannon({
      url: `${address}/v1/arthropod/collection`,
      method: 'POST',
      headers,
      body,
      connections: CONNECTIONS,
      duration: DURATION_S,
    });
    const non2xx = result.non2xx + result.errors;
    return [
      {
        name: `records POST collection, ${label}: throughput`,
        value: result.requests.average,
        unit: 'req/s',
      },
      {
        name: `records POST collection, ${label}: p50 latency`,
        value: result.latency.p50,
        unit: 'ms',
      },
      {
        name: `records POST collection, ${label}: p99 latency`,
        value: result.latency.p99,
        unit: 'ms',
      },
      {
        name: `records POST collection, ${label}: non-2xx or errors`,
        value: non2xx,
        unit: 'responses',
      },
    ];
  } finally {
    await app.close();
  }
}

export async function benchRecordsPglite(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'trapline-bench-'));
  const db = await openDatabase({ dataDir: dir });
  try {
    return await measure(db, 'PGlite file');
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchRecordsPostgres(): Promise<BenchRow[]> {
  const adminUrl = process.env.TRAPLINE_BENCH_DATABASE_URL;
  if (!adminUrl) {
    process.stderr.write('  (skipped: set TRAPLINE_BENCH_DATABASE_URL to a PostgreSQL server)\n');
    return [];
  }
  const name = `trapline_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ databaseUrl: url.toString() });
  try {
    return await measure(db, 'PostgreSQL');
  } finally {
    await db.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
