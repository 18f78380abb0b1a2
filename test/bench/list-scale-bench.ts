/**
 * Does a list page cost the same when an agency holds 50,000 collections as when it holds 1,000?
 * Two in-memory PGlite databases, grown by SQL (`growAgency`: a constant 20 collections a day,
 * so the app's 30-day pull and a year hold as many rows as a district files in that time; 3
 * abundance rows, a lure, a pool and a test each), then the statistics round the records service
 * runs on PGlite. Each serves a real records service over real HTTP; the pages the app and the
 * public clients ask for are requested alternately from both, so load on the machine falls on
 * both alike. Prints p50 and p99 of each page at each size and the p50 ratio 50k / 1k (goal ≤ 1.5).
 */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../src/server/db/database';
import { openDatabase } from '../../src/server/db/open-database';
import { refreshStatistics } from '../../src/server/db/refresh-statistics';
import { buildRecords } from '../../src/server/records/app';
import { seedDemoAgencies } from '../../src/server/records/seed/seed-demo-agencies';
import { seedLookups } from '../../src/server/records/seed/seed-lookups';
import { growAgency, type GrownAgency } from './grow-agency';
import type { BenchRow } from './run';

const PASSWORD = 'bench-password';
const SIZES = [1000, 50_000] as const;
const ROUNDS = Number(process.env.LIST_SCALE_ROUNDS ?? 40);
const WARMUP = 3;

type Served = {
  db: Database;
  app: FastifyInstance;
  address: string;
  headers: Record<string, string>;
  grown: GrownAgency;
};

async function serve(collections: number, now: Date): Promise<Served> {
  const db = await openDatabase({});
  await seedLookups(db);
  await seedDemoAgencies(db, { password: PASSWORD });
  const started = Date.now();
  const grown = await growAgency(db, collections, now);
  // What the service's housekeeping does on PGlite (once ready, every minute, every 500 writes).
  await refreshStatistics(db);
  process.stderr.write(
    `  ${collections} collections grown and analysed in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
  const app = await buildRecords({ db });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const login = await fetch(`${address}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'demo-tech', password: PASSWORD }),
  });
  const { token } = (await login.json()) as { token: string };
  return { db, app, address, headers: { authorization: `Bearer ${token}` }, grown };
}

/** The pages: name → path, given the grown agency (its sites) and today. */
function pages(grown: GrownAgency, now: Date): Record<string, string> {
  const since = new Date(now.getTime() - 30 * 86_400_000).toISOString().slice(0, 10);
  const year = now.getUTCFullYear();
  const C = '/v1/arthropod/collection';
  return {
    'collections newest first': `${C}?page=1&pageSize=100&sort=-collection_date`,
    "one site's collections newest first": `${C}?page=1&pageSize=100&sort=-collection_date&query[site]=${grown.sites[3]}`,
    "this year's collections": `${C}?page=1&pageSize=100&query[surv_year]=${year}`,
    'collections by id, page 2': `${C}?page=2&pageSize=100`,
    'collections newest first, populated': `${C}?page=1&pageSize=100&sort=-collection_date&populate[]=site&populate[]=arthropods&populate[]=lures&populate[]=pools`,
    "app's pull of 30 days of collections": `${C}?pageSize=1000&page=1&sort=id&query[collection_date][$gte]=${since}`,
    'pools newest first': '/v1/arthropod/pool?page=1&pageSize=100&sort=-collection_date',
    "app's pull of 30 days of pools": `/v1/arthropod/pool?pageSize=1000&page=1&sort=id&query[collection_date][$gte]=${since}`,
    'pool tests latest first': '/v1/arthropod/pool/test?page=1&pageSize=100&sort=-test_date',
    sites: '/v1/site?page=1&pageSize=100',
  };
}

async function timed(s: Served, path: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${s.address}${path}`, { headers: s.headers });
  const body = (await res.json()) as { rows?: unknown[] };
  const ms = performance.now() - started;
  if (res.status !== 200 || !Array.isArray(body.rows) || body.rows.length === 0)
    throw new Error(`${path}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
  return ms;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

export async function benchListScale(): Promise<BenchRow[]> {
  const now = new Date();
  const served: Served[] = [];
  try {
    for (const n of SIZES) served.push(await serve(n, now));
    const [small, large] = served;
    const rows: BenchRow[] = [];
    for (const [name, path] of Object.entries(pages(large.grown, now))) {
      // The same site index in both databases: sites are created first, in the same order.
      const smallPath = path.replace(
        `query[site]=${large.grown.sites[3]}`,
        `query[site]=${small.grown.sites[3]}`,
      );
      const times: [number[], number[]] = [[], []];
      for (let i = 0; i < WARMUP + ROUNDS; i++) {
        // Alternate which goes first, so neither always follows the other.
        const order = i % 2 === 0 ? [0, 1] : [1, 0];
        for (const k of order) {
          const ms = await timed(served[k], k === 0 ? smallPath : path);
          if (i >= WARMUP) times[k].push(ms);
        }
      }
      const [a, b] = times.map((t) => [...t].sort((x, y) => x - y));
      rows.push(
        { name: `list scale: ${name}, 1k p50`, value: percentile(a, 50), unit: 'ms' },
        { name: `list scale: ${name}, 50k p50`, value: percentile(b, 50), unit: 'ms' },
        { name: `list scale: ${name}, 1k p99`, value: percentile(a, 99), unit: 'ms' },
        { name: `list scale: ${name}, 50k p99`, value: percentile(b, 99), unit: 'ms' },
        {
          name: `list scale: ${name}, p50 50k / 1k (goal ≤ 1.5)`,
          value: percentile(b, 50) / percentile(a, 50),
          unit: '×',
        },
      );
    }
    return rows;
  } finally {
    for (const s of served) {
      await s.app.close();
      await s.db.close();
    }
  }
}
