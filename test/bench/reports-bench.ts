/**
 * Reports at district scale (issue 10): 5 seasons of 20,000 collections (~3 abundance rows each)
 * and 10,000 pools with their tests, grown by SQL (`growSeasons`) into the bundled records
 * service on in-memory PGlite, served with the real BFF in this process (as `npm start` runs
 * them). Prints:
 * - over HTTP through the BFF: the first (cold) report request, which reads the agency's lists
 *   from the records service, and the same request again (warm: lists cached), so cold − warm is
 *   the list read;
 * - the list read alone, `readReportLists()` (the report worker's read) in-process, median of a few rounds;
 * - each report's computation alone on those lists (median of ROUNDS), its ratio to the 1 s
 *   target and to a reference measured in the same run (JSON.stringify of the same lists), so
 *   the ratio means something on any machine;
 * - sanity: the BFF's monthly Count, TrapEvents and MIR for Cx tarsalis females equal a direct
 *   SQL aggregate on the same database (the bench throws if not).
 * `REPORTS_PER_SEASON` and `REPORTS_ROUNDS` override the size and the rounds.
 */
import { startBff } from '../../src/server/bff/app';
import { PageSlots } from '../../src/server/bff/reports/page-slots';
import {
  readReportLists,
  REPORT_PAGES_AT_ONCE,
  type ReportLists,
} from '../../src/server/bff/reports/report-list-read';
import { UpstreamClient } from '../../src/server/bff/upstream-client';
import type { Database } from '../../src/server/db/database';
import { openDatabase } from '../../src/server/db/open-database';
import { refreshStatistics } from '../../src/server/db/refresh-statistics';
import { buildRecords } from '../../src/server/records/app';
import { SPECIES_ID, STATUS_ID, TARGET_ID } from '../../src/server/records/seed/lookup-data';
import { seedDemoAgencies } from '../../src/server/records/seed/seed-demo-agencies';
import { seedLookups } from '../../src/server/records/seed/seed-lookups';
import {
  abundanceAnomalyReport,
  abundanceReport,
  infectionRateReport,
  vectorIndexReport,
  type Report,
} from '#shared/reports';
import { growSeasons } from './grow-seasons';
import type { BenchRow } from './run';

const PASSWORD = 'bench-password';
const SEASONS = 5;
const PER_SEASON = Number(process.env.REPORTS_PER_SEASON ?? 20_000);
const ROUNDS = Number(process.env.REPORTS_ROUNDS ?? 5);
const LIST_ROUNDS = 3;
const TARGET_MS = 1000;

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Median wall time of `rounds` runs of `work`, and what the last run returned. */
function timed<T>(rounds: number, work: () => T): { ms: number; result: T } {
  const times: number[] = [];
  let result: T | undefined;
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    result = work();
    times.push(performance.now() - started);
  }
  return { ms: median(times), result: result as T };
}

type Bff = { url: string; cookie: string };

async function signIn(url: string): Promise<Bff> {
  const res = await fetch(`${url}/api/session`, {
    method: 'POST',
    headers: { origin: url, 'x-csrf': '1', 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'demo-manager', password: PASSWORD }),
  });
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.startsWith('__Host-trapline='))
    ?.split(';', 1)[0];
  if (res.status !== 200 || !cookie) throw new Error(`sign-in failed: ${res.status}`);
  return { url, cookie };
}

type ReportAnswer = { rows: Array<Record<string, number | string | null>>; count: number };

/** One report through the BFF over HTTP, and how long it took to the last byte. */
async function request(bff: Bff, path: string): Promise<{ ms: number; body: ReportAnswer }> {
  const started = performance.now();
  const res = await fetch(`${bff.url}/api/reports/${path}`, {
    headers: { origin: bff.url, 'x-csrf': '1', cookie: bff.cookie },
  });
  const text = await res.text();
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text.slice(0, 300)}`);
  return { ms, body: JSON.parse(text) as ReportAnswer };
}

/**
 * `readReportLists()` as the report worker calls it, in this process, with the signed-in
 * agency's upstream token and a pool and page slots of its own.
 */
async function readListsInProcess(recordsUrl: string, token: string): Promise<ReportLists> {
  const upstream = new UpstreamClient(recordsUrl, {
    connectTimeoutMs: 5_000,
    responseTimeoutMs: 120_000,
  });
  const slots = new PageSlots(REPORT_PAGES_AT_ONCE);
  try {
    return await readReportLists(
      { upstream, token, agencyId: 1, slots },
      new AbortController().signal,
    );
  } finally {
    await upstream.destroy();
  }
}

/**
 * The BFF's figures for one simple slice against SQL on the same database: per month of
 * `year`, Cx tarsalis females' Count and the TrapEvents (abundance report), and the WNV MIR of
 * Cx tarsalis female pools (infection-rate report). Throws on the first difference.
 */
async function checkAgainstSql(db: Database, bff: Bff, year: number): Promise<BenchRow[]> {
  const usable = `c.agency = 1 and c.surv_year = $1 and c.deactive_date is null
                  and c.trap_nights > 0 and c.num_trap > 0 and not c.trap_problem_bit`;
  const month = (col: string) => `extract(month from ${col} at time zone 'UTC')::int`;
  const { rows: counts } = await db.query<{ month: number; count: number }>(
    `select ${month('c.collection_date')} as month, sum(a.num_count)::int as count
       from abundance a join collection c on c.id = a.collection join sex x on x.id = a.sex
      where ${usable} and a.deactive_date is null and a.species = $2 and x.type = 'female'
      group by 1`,
    [year, SPECIES_ID.cxTarsalis],
  );
  const { rows: events } = await db.query<{ month: number; events: number }>(
    `select ${month('c.collection_date')} as month, sum(c.trap_nights * c.num_trap)::int as events
       from collection c where ${usable} group by 1`,
    [year],
  );
  const { rows: pooled } = await db.query<{ month: number; x: number; m: number }>(
    `select ${month('p.collection_date')} as month,
            count(*) filter (where t.status = $3)::int as x, sum(p.num_count)::int as m
       from pool_test t join pool p on p.id = t.pool join sex x on x.id = p.sex
      where p.agency = 1 and p.surv_year = $1 and p.deactive_date is null
        and t.deactive_date is null and t.target = $2 and p.species = $4 and x.type = 'female'
      group by 1`,
    [year, TARGET_ID.wnv, STATUS_ID.confirmed, SPECIES_ID.cxTarsalis],
  );

  const slice = `year=${year}&interval=Month&species=Cx%20tarsalis`;
  const abundance = (await request(bff, `abundance?${slice}`)).body.rows;
  const mir = (await request(bff, `infection-rate?${slice}&pt_estimate=mir`)).body.rows;
  const fail = (what: string) => {
    throw new Error(`reports bench: the BFF's ${what} for ${year} differs from SQL`);
  };
  const sqlCount = new Map(counts.map((r) => [r.month, r.count]));
  const sqlEvents = new Map(events.map((r) => [r.month, r.events]));
  if (abundance.length !== sqlEvents.size) fail('months with trap events');
  for (const row of abundance) {
    const m = row.Month as number;
    if (row.Count !== (sqlCount.get(m) ?? 0)) fail(`Count of month ${m}`);
    if (row.TrapEvents !== sqlEvents.get(m)) fail(`TrapEvents of month ${m}`);
  }
  if (mir.length !== pooled.length) fail('months with WNV tests');
  for (const { month: m, x, m: size } of pooled) {
    const row = mir.find((r) => r.Month === m);
    const expected = (x / size) * 1000;
    if (!row || Math.abs((row.InfectionRate as number) - expected) > 1e-9 * expected)
      fail(`WNV MIR of month ${m}`);
  }
  const total = (rows: Array<{ count: number }>) => rows.reduce((s, r) => s + r.count, 0);
  return [
    {
      name: `reports sanity: Cx tarsalis females ${year}, BFF Count = SQL (checked per month)`,
      value: total(counts),
      unit: 'mosquitoes',
    },
    {
      name: `reports sanity: WNV tests of Cx tarsalis female pools ${year}, BFF MIR = SQL`,
      value: pooled.reduce((s, r) => s + r.x, 0),
      unit: 'positive',
    },
  ];
}

export async function benchReports(): Promise<BenchRow[]> {
  const last = new Date().getUTCFullYear();
  const years = Array.from({ length: SEASONS }, (_, i) => last - SEASONS + 1 + i);
  const db = await openDatabase({});
  const closers: Array<() => Promise<void>> = [() => db.close()];
  try {
    await seedLookups(db);
    await seedDemoAgencies(db, { password: PASSWORD });
    let started = performance.now();
    const grown = await growSeasons(db, years, PER_SEASON);
    await refreshStatistics(db);
    const growS = (performance.now() - started) / 1000;
    process.stderr.write(`  grown ${JSON.stringify(grown)} in ${growS.toFixed(1)} s\n`);

    const records = await buildRecords({ db });
    const recordsUrl = await records.listen({ port: 0, host: '127.0.0.1' });
    closers.unshift(() => records.close());
    const bff = await startBff({ db, upstreamUrl: recordsUrl, staticRoot: null });
    closers.unshift(() => bff.close());
    const session = await signIn(bff.url);

    const all = years.map((y) => `year=${y}`).join('&');
    const path = `abundance?${all}&separate_by=species`;
    const cold = await request(session, path);
    const warm: number[] = [];
    for (let i = 0; i < ROUNDS; i++) warm.push((await request(session, path)).ms);
    const warmMs = median(warm);
    process.stderr.write(`  cold ${cold.ms.toFixed(0)} ms, warm ${warmMs.toFixed(0)} ms\n`);

    const login = await fetch(`${recordsUrl}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'demo-manager', password: PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    const listTimes: number[] = [];
    let lists: ReportLists | undefined;
    for (let i = 0; i < LIST_ROUNDS; i++) {
      started = performance.now();
      lists = await readListsInProcess(recordsUrl, token);
      listTimes.push(performance.now() - started);
    }
    const read = lists as ReportLists;
    if (read.collections.length !== grown.collections || read.pools.length !== grown.pools)
      throw new Error(
        `reports bench: read ${read.collections.length} collections, ${read.pools.length} pools`,
      );

    const reference = timed(ROUNDS, () => JSON.stringify(read).length);
    // The least any report does: one pass over every abundance row and pool test.
    const pass = timed(ROUNDS, () => {
      let sum = 0;
      for (const c of read.collections) for (const a of c.arthropods ?? []) sum += a.num_count;
      for (const p of read.pools) sum += (p.test?.length ?? 0) * p.num_count;
      return sum;
    });
    const common = { interval: 'Week', separate_by: ['species'] } as const;
    const reports: Array<[string, () => Report]> = [
      ['abundance', () => abundanceReport(read.collections, { ...common, year: years })],
      [
        'abundance-anomaly',
        () => abundanceAnomalyReport(read.collections, { ...common, target_year: last }),
      ],
      ...(['bc-mle', 'mle', 'mir'] as const).map((pt_estimate): [string, () => Report] => [
        `infection-rate ${pt_estimate}`,
        () => infectionRateReport(read.pools, { ...common, year: years, pt_estimate }),
      ]),
      [
        'vector-index',
        () => vectorIndexReport(read.collections, read.pools, { ...common, year: years }),
      ],
    ];

    const rows: BenchRow[] = [
      { name: 'reports data: seasons', value: SEASONS, unit: 'seasons' },
      { name: 'reports data: collections', value: grown.collections, unit: 'rows' },
      { name: 'reports data: abundance rows', value: grown.abundanceRows, unit: 'rows' },
      { name: 'reports data: pools', value: grown.pools, unit: 'rows' },
      { name: 'reports data: pool tests', value: grown.poolTests, unit: 'rows' },
      { name: 'reports data: grown by SQL and analysed in', value: growS, unit: 's' },
      {
        name: 'reports HTTP: first abundance request (cold, reads lists)',
        value: cold.ms,
        unit: 'ms',
      },
      { name: 'reports HTTP: same request, lists cached (warm p50)', value: warmMs, unit: 'ms' },
      { name: 'reports HTTP: cold − warm = list read', value: cold.ms - warmMs, unit: 'ms' },
      { name: 'reports lists: reportLists() in-process p50', value: median(listTimes), unit: 'ms' },
      {
        name: 'reports lists: rows read per second',
        value: ((grown.collections + grown.pools) / median(listTimes)) * 1000,
        unit: 'rows/s',
      },
      {
        name: `reports reference: JSON.stringify of the lists (${(reference.result / 1e6).toFixed(0)} MB) p50`,
        value: reference.ms,
        unit: 'ms',
      },
      { name: 'reports reference: one pass summing every count p50', value: pass.ms, unit: 'ms' },
    ];
    for (const [name, run] of reports) {
      const { ms, result } = timed(ROUNDS, run);
      rows.push(
        {
          name: `reports compute: ${name} (${result.rows.length} rows) p50`,
          value: ms,
          unit: 'ms',
        },
        { name: `reports compute: ${name} / 1 s target`, value: ms / TARGET_MS, unit: '×' },
        { name: `reports compute: ${name} / JSON reference`, value: ms / reference.ms, unit: '×' },
        { name: `reports compute: ${name} / one-pass reference`, value: ms / pass.ms, unit: '×' },
      );
    }
    rows.push(...(await checkAgainstSql(db, session, last)));
    return rows;
  } finally {
    for (const close of closers) await close();
  }
}
