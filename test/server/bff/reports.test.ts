import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  abundanceAnomalyReport,
  abundanceReport,
  infectionRateReport,
  reportCollection,
  reportPool,
  vectorIndexReport,
  type ReportCollection,
  type ReportPool,
} from '#shared/reports';
import { csvCell } from '../../../src/server/bff/reports/report-csv';
import {
  METHOD_ID,
  SEX_ID,
  SPECIES_ID,
  STATUS_ID,
  TARGET_ID,
  TRAP_ID,
} from '../../../src/server/records/seed/lookup-data';
import { startBffStack, type BffStack } from './helpers/bff-stack';
import { http } from './helpers/http';

let stack: BffStack;
let manager: string;
let neighbor: string;
/** The current season, the routes' default year. */
const season = new Date().getUTCFullYear();
const LAB = 3;

const spot = {
  location: {
    shape: { type: 'Point', coordinates: [-121.49, 38.58] },
    coordinate_precision: 1,
  },
};

async function post(cookie: string, path: string, body: Record<string, unknown>) {
  const res = await stack.api(`/api/v1${path}`, { method: 'POST', cookie, body });
  expect(res.status, res.text).toBe(201);
  return res.json<{ id: number }>();
}

async function collection(cookie: string, over: Record<string, unknown>) {
  return post(cookie, '/arthropod/collection', {
    num_trap: 1,
    trap: TRAP_ID.co2,
    trap_nights: 1,
    ...spot,
    ...over,
  });
}

async function pool(
  cookie: string,
  c: number,
  species: number,
  sex: number,
  count: number,
  tests: Array<{ target: number; status: number; date: string }>,
) {
  const p = await post(cookie, '/arthropod/pool', {
    collection: c,
    species,
    sex,
    num_count: count,
  });
  for (const t of tests) {
    await post(cookie, '/arthropod/pool/test', {
      pool: p.id,
      method: METHOD_ID.rtPcr,
      target: t.target,
      status: t.status,
      test_date: t.date,
      test_agency: LAB,
    });
  }
}

/** The agency's lists read straight from the records service, independently of the BFF. */
async function upstreamLists(username: string) {
  const token = await stack.records.login(username);
  const read = async (path: string, populate: string[]) => {
    const q = populate.map((p) => `populate[]=${p}`).join('&');
    const res = await http(`${stack.recordsUrl}${path}?pageSize=1000&${q}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status, res.text).toBe(200);
    return res.json<{ rows: unknown[] }>().rows;
  };
  const collections: ReportCollection[] = (
    await read('/v1/arthropod/collection', ['arthropods', 'trap', 'agency'])
  ).map((r) => reportCollection.parse(r));
  const pools: ReportPool[] = (
    await read('/v1/arthropod/pool', ['test', 'status', 'species', 'sex', 'trap', 'agency'])
  ).map((r) => reportPool.parse(r));
  return { collections, pools };
}

async function report(path: string, cookie = manager) {
  const res = await stack.api(`/api/reports/${path}`, { cookie });
  expect(res.status, res.text).toBe(200);
  return res.json<{ rows: Array<Record<string, unknown>>; count: number }>();
}

beforeAll(async () => {
  stack = await startBffStack();
  manager = await stack.signIn('demo-manager');
  neighbor = await stack.signIn('neighbor-manager');
  // 2025, MMWR week 28 (Sun 6 July – Sat 12 July): two collections, three trap events.
  const c1 = await collection(manager, {
    collection_date: '2025-07-08',
    arthropods: [
      { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 30 },
      { species: SPECIES_ID.cxPipiens, sex: SEX_ID.fGravid, num_count: 10 },
      { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.male, num_count: 5 },
    ],
  });
  await collection(manager, {
    collection_date: '2025-07-09',
    trap: TRAP_ID.gravid,
    num_trap: 2,
    arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fUnfed, num_count: 8 }],
  });
  // Week 29: a catch and an empty trap (counts toward trap events).
  const c3 = await collection(manager, {
    collection_date: '2025-07-16',
    arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 12 }],
  });
  await collection(manager, { collection_date: '2025-07-17', arthropods: [] });
  // Earlier years for the anomaly.
  for (const [date, n] of [
    ['2024-07-10', 20],
    ['2023-07-12', 40],
  ] as const) {
    await collection(manager, {
      collection_date: date,
      arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: n }],
    });
  }
  // The current season, for the default year.
  await collection(manager, {
    collection_date: `${season}-01-01`,
    arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 3 }],
  });
  const wnv = (status: number) => ({ target: TARGET_ID.wnv, status, date: '2025-07-20' });
  await pool(manager, c1.id, SPECIES_ID.cxTarsalis, SEX_ID.fMixed, 30, [wnv(STATUS_ID.confirmed)]);
  await pool(manager, c1.id, SPECIES_ID.cxPipiens, SEX_ID.fGravid, 10, [wnv(STATUS_ID.negative)]);
  await pool(manager, c3.id, SPECIES_ID.cxTarsalis, SEX_ID.fMixed, 12, [
    wnv(STATUS_ID.negative),
    { target: TARGET_ID.slev, status: STATUS_ID.confirmed, date: '2025-07-21' },
  ]);
  // Another agency, the same week: never counted in demo's reports.
  const n1 = await collection(neighbor, {
    collection_date: '2025-07-08',
    arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 1000 }],
  });
  await pool(neighbor, n1.id, SPECIES_ID.cxTarsalis, SEX_ID.fMixed, 50, [wnv(STATUS_ID.confirmed)]);
});
afterAll(async () => {
  await stack?.close();
});

describe('the reports equal the shared module on the agency’s own records', () => {
  it('abundance: every interval and separation', async () => {
    const { collections } = await upstreamLists('demo-manager');
    const cases: Array<[string, Parameters<typeof abundanceReport>[1]]> = [
      ['year=2025', { year: [2025] }],
      ['year=2025&separate_by=species', { year: [2025], separate_by: ['species'] }],
      [
        'year=2024&year=2025&interval=Month&separate_by=trap&separate_by=species&sex=all',
        { year: [2024, 2025], interval: 'Month', separate_by: ['trap', 'species'], sex: 'all' },
      ],
      [
        'year=2025&interval=CollectionDate&trap=CO2&trapnight_min=1&trapnight_max=1',
        {
          year: [2025],
          interval: 'CollectionDate',
          trap: ['CO2'],
          trapnight_min: 1,
          trapnight_max: 1,
        },
      ],
      ['year=2025&species=Cx+pipiens', { year: [2025], species: ['Cx pipiens'] }],
    ];
    for (const [query, params] of cases) {
      const got = await report(`abundance?${query}`);
      const want = abundanceReport(collections, params);
      expect(got, query).toEqual({ rows: want.rows, count: want.rows.length });
    }
    // A species filter by display name: only Cx pipiens' 10 females in week 28.
    const pipiens = await report('abundance?year=2025&species=Cx+pipiens');
    expect(pipiens.rows.find((r) => r.Week === 28)).toMatchObject({ Count: 10, TrapEvents: 3 });
    // Hand-worked: week 28 of 2025 caught 30 + 10 + 8 females over 1×1 + 2×1 trap events.
    const week28 = (await report('abundance?year=2025')).rows.find((r) => r.Week === 28);
    expect(week28).toEqual({ Year: 2025, Week: 28, Count: 48, TrapEvents: 3, Abundance: 16 });
    // Column order is the spec's.
    const sep = await report('abundance?year=2025&separate_by=species');
    expect(Object.keys(sep.rows[0])).toEqual([
      'Year',
      'Week',
      'Species',
      'Count',
      'TrapEvents',
      'Abundance',
    ]);
  });

  it('abundance anomaly, infection rate (each estimator, SLEV) and vector index', async () => {
    const { collections, pools } = await upstreamLists('demo-manager');
    const anomaly = await report('abundance-anomaly?target_year=2025');
    expect(anomaly).toEqual({
      rows: abundanceAnomalyReport(collections, { target_year: 2025 }).rows,
      count: anomaly.rows.length,
    });
    // Hand-worked: week 28's abundance 16 against 2023's 40 and 2024's 20 (average 30).
    expect(anomaly.rows.find((r) => r.Week === 28)).toMatchObject({
      Abundance: 16,
      FiveYearAvg: 30,
      YearsInAverage: '2023,2024',
    });
    for (const pt of ['bc-mle', 'mle', 'mir'] as const) {
      const got = await report(`infection-rate?year=2025&pt_estimate=${pt}&separate_by=species`);
      const want = infectionRateReport(pools, {
        year: [2025],
        pt_estimate: pt,
        separate_by: ['species'],
      });
      expect(got, pt).toEqual({ rows: want.rows, count: want.rows.length });
      expect(got.count).toBeGreaterThan(0);
    }
    const slev = await report('infection-rate?year=2025&target_disease=SLEV&scale=100');
    expect(slev.rows).toEqual(
      infectionRateReport(pools, { year: [2025], target_disease: 'SLEV', scale: 100 }).rows,
    );
    const vi = await report('vector-index?year=2025&separate_by=species&interval=Biweek');
    expect(vi.rows).toEqual(
      vectorIndexReport(collections, pools, {
        year: [2025],
        separate_by: ['species'],
        interval: 'Biweek',
      }).rows,
    );
    expect(Object.keys(vi.rows[0])).toContain('CDCVectorIndex');
  });

  it('defaults to the current season', async () => {
    const { collections, pools } = await upstreamLists('demo-manager');
    const got = await report('abundance');
    expect(got.rows).toEqual(abundanceReport(collections, { year: [season] }).rows);
    expect(got.rows.map((r) => r.Year)).toEqual([season]);
    expect((await report('abundance-anomaly')).rows).toEqual(
      abundanceAnomalyReport(collections, { target_year: season }).rows,
    );
    expect((await report('vector-index')).rows).toEqual(
      vectorIndexReport(collections, pools, { year: [season] }).rows,
    );
  });
});

describe('CSV', () => {
  it('gives the same columns and rows as a file', async () => {
    const json = await report('vector-index?year=2025&separate_by=species');
    const res = await stack.api(
      '/api/reports/vector-index?year=2025&separate_by=species&format=csv',
      {
        cookie: manager,
      },
    );
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="trapline-vector-index-2025.csv"',
    );
    const lines = res.text.split('\r\n');
    expect(lines.pop()).toBe('');
    expect(lines[0]).toBe(
      'Year,Week,Species,Count,TrapEvents,Abundance,InfectionRate,LowerCI,UpperCI,VectorIndex,CDCVectorIndex',
    );
    expect(lines).toHaveLength(json.count + 1);
    const columns = lines[0].split(',');
    lines.slice(1).forEach((line, i) => {
      expect(line).toBe(columns.map((c) => csvCell(json.rows[i][c] as never)).join(','));
    });
    const anomaly = await stack.api('/api/reports/abundance-anomaly?target_year=2025&format=csv', {
      cookie: manager,
    });
    expect(anomaly.headers['content-disposition']).toBe(
      'attachment; filename="trapline-abundance-anomaly-2025.csv"',
    );
    // YearsInAverage holds a comma: quoted.
    expect(anomaly.text).toContain(',"2023,2024",');
  });

  it('quotes and escapes cells, and never lets a spreadsheet run one as a formula', () => {
    expect(csvCell(null)).toBe('');
    expect(csvCell(-12.5)).toBe('-12.5');
    expect(csvCell('Culex tarsalis')).toBe('Culex tarsalis');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    for (const lead of ['+', '-', '@']) expect(csvCell(`${lead}1`)).toBe(`'${lead}1`);
  });
});

describe('bad requests', () => {
  it('answers 422 validation_failed naming each bad parameter, reading nothing upstream', async () => {
    const cases: Array<[string, string, string[]]> = [
      ['abundance', 'year=abc', ['year']],
      ['abundance', 'year=1800', ['year']],
      ['abundance', 'interval=Day', ['interval']],
      ['abundance', 'sex=both', ['sex']],
      ['abundance', 'separate_by=site', ['separate_by']],
      ['abundance', 'trapnight_min=-1', ['trapnight_min']],
      ['abundance', 'trapnight_max=x', ['trapnight_max']],
      ['abundance', 'trapnight_min=3&trapnight_max=1', ['trapnight_max']],
      ['abundance', 'format=xml', ['format']],
      ['abundance', 'interval=Week&interval=Month', ['interval']],
      ['abundance', 'yaer=2025', ['yaer']],
      ['abundance', 'target_disease=WNV', ['target_disease']],
      ['abundance-anomaly', 'target_year=soon', ['target_year']],
      ['abundance-anomaly', 'year=2025', ['year']],
      ['infection-rate', 'target_disease=ZIKV', ['target_disease']],
      ['infection-rate', 'pt_estimate=bayes', ['pt_estimate']],
      ['infection-rate', 'scale=0', ['scale']],
      ['infection-rate', 'trapnight_min=1', ['trapnight_min']],
      ['vector-index', 'year=x&sex=none&scale=-1', ['year', 'sex', 'scale']],
    ];
    const before = stack.proxy.seen.length;
    for (const [name, query, fields] of cases) {
      const res = await stack.api(`/api/reports/${name}?${query}`, { cookie: manager });
      expect(res.status, `${name}?${query}`).toBe(422);
      const body = res.json<{ error: { code: string; fields: Array<{ path: string }> } }>();
      expect(body.error.code).toBe('validation_failed');
      expect([...new Set(body.error.fields.map((f) => f.path))].sort(), query).toEqual(
        [...fields].sort(),
      );
    }
    expect(stack.proxy.seen.slice(before)).toEqual([]);
  });

  it('needs a session (401) and the X-CSRF header (403), like every /api route', async () => {
    const anon = await stack.api('/api/reports/abundance?year=2025');
    expect(anon.status).toBe(401);
    expect(anon.json()).toMatchObject({ error: { code: 'unauthenticated' } });
    const noCsrf = await stack.api('/api/reports/abundance?year=2025', {
      cookie: manager,
      csrf: false,
    });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.json()).toMatchObject({ error: { code: 'csrf_required' } });
  });
});

describe('agencies and freshness', () => {
  it('never counts another agency’s records', async () => {
    const demo = (await report('abundance?year=2025')).rows.find((r) => r.Week === 28);
    expect(demo).toMatchObject({ Count: 48, TrapEvents: 3 });
    const theirs = await report('abundance?year=2025', neighbor);
    expect(theirs.rows).toEqual([
      { Year: 2025, Week: 28, Count: 1000, TrapEvents: 1, Abundance: 1000 },
    ]);
    const { collections, pools } = await upstreamLists('neighbor-manager');
    expect(theirs.rows).toEqual(abundanceReport(collections, { year: [2025] }).rows);
    expect((await report('infection-rate?year=2025', neighbor)).rows).toEqual(
      infectionRateReport(pools, { year: [2025] }).rows,
    );
  });

  it('reads the lists once, and again after the agency records something', async () => {
    await report('abundance?year=2025');
    const before = stack.proxy.seen.length;
    const cached = await report('abundance?year=2025&interval=Month');
    expect(stack.proxy.seen.slice(before)).toEqual([]);
    expect(cached.rows).toEqual([
      { Year: 2025, Month: 7, Count: 60, TrapEvents: 5, Abundance: 12 },
    ]);
    // A neighbour's write does not drop demo's lists.
    await collection(neighbor, { collection_date: '2025-07-30', arthropods: [] });
    const mark = stack.proxy.seen.length;
    await report('abundance?year=2025&interval=Month');
    expect(stack.proxy.seen.slice(mark).filter((r) => r.method === 'GET')).toEqual([]);
    // demo's own write through the BFF: the next report reads the lists again and counts it.
    await collection(manager, {
      collection_date: '2025-07-23',
      arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 30 }],
    });
    const fresh = await report('abundance?year=2025&interval=Month');
    expect(fresh.rows).toEqual([{ Year: 2025, Month: 7, Count: 90, TrapEvents: 6, Abundance: 15 }]);
    // The reads were paged at the contract's maximum, populated as the shared module needs.
    const reads = stack.proxy.seen.slice(mark).filter((r) => r.method === 'GET');
    expect(reads.map((r) => r.path).sort()).toEqual([
      '/v1/arthropod/collection',
      '/v1/arthropod/pool',
    ]);
    for (const r of reads) expect(r.target).toContain('pageSize=1000');
  });
});

describe('an agency with more than one page of records', () => {
  let big: BffStack;
  beforeAll(async () => {
    big = await startBffStack();
    // 2,450 collections of 2 Culex tarsalis females each, written straight into the database.
    await big.records.db.query(
      `insert into collection (agency, site, collection_date, collection_num, num_trap, surv_year,
         trap, trap_nights)
       select 2, (select id from site where agency = 2 and code = '000000'),
              timestamptz '2025-01-01' + (g % 300) * interval '1 day', g, 1, 2025, $1, 1
         from generate_series(1, 2450) g`,
      [TRAP_ID.co2],
    );
    await big.records.db.query(
      `insert into abundance (collection, agency, species, sex, num_count)
       select id, 2, $1, $2, 2 from collection where agency = 2`,
      [SPECIES_ID.cxTarsalis, SEX_ID.fMixed],
    );
  });
  afterAll(async () => {
    await big?.close();
  });

  it('reads every page (pageSize 1000) and counts every record', async () => {
    const cookie = await big.signIn('neighbor-manager');
    const before = big.proxy.seen.length;
    const res = await big.api('/api/reports/abundance?year=2025&interval=Month', { cookie });
    expect(res.status, res.text).toBe(200);
    const rows = res.json<{ rows: Array<{ Count: number; TrapEvents: number }> }>().rows;
    expect(rows).toHaveLength(10);
    expect(rows.reduce((s, r) => s + r.Count, 0)).toBe(4900);
    expect(rows.reduce((s, r) => s + r.TrapEvents, 0)).toBe(2450);
    // Read by key in id order (report-paging.test.ts: why never by page number); the one
    // read sorted by -id asks for the highest id only.
    const reads = big.proxy.seen
      .slice(before)
      .filter((r) => r.path === '/v1/arthropod/collection')
      .map((r) => new URLSearchParams(r.target.split('?')[1]));
    for (const q of reads) {
      expect(q.get('page')).toBe('1');
      if (q.get('sort') === '-id') expect(q.get('pageSize')).toBe('1');
      else expect([q.get('sort'), q.has('query[id][$gt]')]).toEqual(['id', true]);
    }
  });
});
