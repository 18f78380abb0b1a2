import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { LOAD_PASSWORD } from './scale-out-stack';

/**
 * The scale-out load (issue 13 item 5), through the BFFs as the app sends it: T technicians,
 * each saving C collections one after another, all technicians at once. Every create carries an
 * Idempotency-Key, and among them, by position in a technician's list:
 * - a retry: the same key sent again after its answer (must replay, never create);
 * - a dropped response: the request is cut off 0–30 ms after it is sent, whatever the server was
 *   doing, and sent again with the same key until it is answered;
 * - a concurrent duplicate: the same key sent twice at once, to two different BFFs when there
 *   are two (one must wait for the other's lease, never create a second record).
 * Requests otherwise go round the BFFs, as a reverse proxy would spread them.
 */
export type LoadPlan = {
  bffUrls: string[];
  technicians: number;
  collectionsEach: number;
  /** false: every create sent once, no retry, drop or duplicate (the plain throughput). */
  faults?: boolean;
};

export type LoadResult = {
  /** Collections the technicians meant to save (one per key). */
  keys: number;
  /** HTTP requests sent, retries and duplicates included. */
  requests: number;
  /** Seconds from the first create to the last answer. */
  seconds: number;
  /** Answers 409 idempotency_in_flight: a key's lease held by another request (then retried). */
  inFlight: number;
  /** Answers marked idempotent-replayed (a retry or duplicate answered from the journal). */
  replayed: number;
  /** What went wrong: a 5xx, an unexpected status, two ids for one key. Must stay empty. */
  errors: string[];
  /** What the technicians were told: record id per key, with the agency and marker. */
  created: Map<string, { id: number; agency: number; marker: string }>;
  /** A run-unique text in every collection's comments, to find them again. */
  runId: string;
};

/**
 * The technicians' connections (keep-alive, as a browser's). Closed by `closeClients` before the
 * servers stop: a server's graceful stop waits for its clients' open connections.
 */
let clients = new Agent();

export async function closeClients(): Promise<void> {
  const closing = clients;
  clients = new Agent();
  await closing.close();
}

export type Technician = { cookie: string; agency: number; index: number };

/** Every fifth technician works for the neighbouring agency: numbering is per agency-year. */
const usernameOf = (i: number) => (i % 5 === 4 ? 'neighbor-manager' : 'demo-tech');

/** Signs `username` in through the BFF at `url`; the session is good at every BFF sharing its database. */
export async function signIn(url: string, username: string): Promise<Technician> {
  const res = await request(`${url}/api/session`, {
    dispatcher: clients,
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url, 'x-csrf': '1' },
    body: JSON.stringify({ username, password: LOAD_PASSWORD }),
  });
  const text = await res.body.text();
  const setCookie = res.headers['set-cookie'];
  const line = (Array.isArray(setCookie) ? setCookie : [setCookie ?? '']).find((c) =>
    c.startsWith('__Host-trapline='),
  );
  if (res.statusCode !== 200 || !line) throw new Error(`sign-in ${res.statusCode}: ${text}`);
  const agency = (JSON.parse(text) as { agency: { id: number } }).agency.id;
  return { cookie: line.split(';', 1)[0], agency, index: -1 };
}

type Answer = { status: number; id: number | null; code: string | null; replayed: boolean };

function collectionBody(marker: string, j: number): Record<string, unknown> {
  const date = new Date(Date.UTC(2026, 0, 1) + (j % 300) * 86_400_000);
  return {
    collection_date: date.toISOString().slice(0, 10),
    num_trap: 1,
    trap: 1,
    trap_nights: 1,
    comments: marker,
    location: { shape: { type: 'Point', coordinates: [-121.49, 38.58] }, coordinate_precision: 1 },
    arthropods: [{ species: 1, sex: 4, num_count: 1 + (j % 40) }],
  };
}

async function post(
  url: string,
  tech: Technician,
  key: string,
  body: string,
  cutAfterMs?: number,
): Promise<Answer> {
  const res = await request(`${url}/api/v1/arthropod/collection`, {
    dispatcher: clients,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: url,
      'x-csrf': '1',
      cookie: tech.cookie,
      'idempotency-key': key,
    },
    body,
    signal: cutAfterMs === undefined ? undefined : AbortSignal.timeout(cutAfterMs),
  });
  const text = await res.body.text();
  let parsed: { id?: unknown; error?: { code?: unknown } } = {};
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    // A non-JSON answer is reported by its status below.
  }
  return {
    status: res.statusCode,
    id: typeof parsed.id === 'number' ? parsed.id : null,
    code: typeof parsed.error?.code === 'string' ? parsed.error.code : null,
    replayed: res.headers['idempotent-replayed'] === 'true',
  };
}

export async function runCollectionLoad(plan: LoadPlan): Promise<LoadResult> {
  const urls = plan.bffUrls;
  const runId = `load-${randomBytes(4).toString('hex')}`;
  const techs: Technician[] = [];
  for (let i = 0; i < plan.technicians; i++) {
    techs.push({ ...(await signIn(urls[i % urls.length], usernameOf(i))), index: i });
  }
  const result: LoadResult = {
    keys: 0,
    requests: 0,
    seconds: 0,
    inFlight: 0,
    replayed: 0,
    errors: [],
    created: new Map(),
    runId,
  };
  let turn = 0;
  const nextUrl = () => urls[turn++ % urls.length];

  /** Takes in one answer for `key`; returns its record id when it is a 201. */
  const take = (key: string, a: Answer): number | null => {
    result.requests++;
    if (a.replayed) result.replayed++;
    if (a.status === 201 && a.id !== null) return a.id;
    if (a.status === 409 && a.code === 'idempotency_in_flight') result.inFlight++;
    else result.errors.push(`${key}: ${a.status} ${a.code ?? ''}`);
    return null;
  };

  /** Sends `key` until it is answered 201 (waiting out another request's lease). */
  const untilCreated = async (tech: Technician, key: string, body: string): Promise<number> => {
    for (let attempt = 1; attempt <= 100; attempt++) {
      let answer: Answer;
      try {
        answer = await post(nextUrl(), tech, key, body);
      } catch (err) {
        result.requests++;
        result.errors.push(`${key}: ${String(err)}`);
        await sleep(50);
        continue;
      }
      const id = take(key, answer);
      if (id !== null) return id;
      if (answer.status !== 409) throw new Error(`${key}: gave up after ${answer.status}`);
      await sleep(Math.min(1_000, 50 * attempt));
    }
    throw new Error(`${key}: still in flight after 100 attempts`);
  };

  const saveOne = async (tech: Technician, j: number) => {
    const key = randomUUID();
    const marker = `${runId} t${tech.index} c${j}`;
    const body = JSON.stringify(collectionBody(marker, j));
    const ids: number[] = [];
    const kind = plan.faults === false ? 0 : j % 10;
    if (kind === 3) {
      // Concurrent duplicate: the same key at once to two BFFs (two processes when there are two).
      const second = urls[(tech.index + 1) % urls.length];
      const answers = await Promise.all([
        post(urls[tech.index % urls.length], tech, key, body),
        post(second, tech, key, body),
      ]);
      for (const a of answers) {
        const id = take(key, a);
        if (id !== null) ids.push(id);
      }
    } else if (kind === 8) {
      // Dropped response: cut off 0–30 ms after sending, the server's work goes on or not.
      result.requests++;
      await post(nextUrl(), tech, key, body, Math.floor(Math.random() * 30)).catch(() => null);
    }
    if (ids.length === 0) ids.push(await untilCreated(tech, key, body));
    if (kind === 6) {
      // Retry of an answered create: must be the same record.
      ids.push(await untilCreated(tech, key, body));
    }
    if (new Set(ids).size !== 1) result.errors.push(`${key}: answered with ids ${ids.join(', ')}`);
    result.created.set(key, { id: ids[0], agency: tech.agency, marker });
    result.keys++;
  };

  const started = performance.now();
  await Promise.all(
    techs.map(async (tech) => {
      for (let j = 0; j < plan.collectionsEach; j++) await saveOne(tech, j);
    }),
  );
  result.seconds = (performance.now() - started) / 1000;
  return result;
}

export type StoredCheck = {
  /** Collections of this run stored, per marker: each must be 1. */
  rowsPerMarker: Map<string, number[]>;
  /** (agency, year, number) held by more than one collection. */
  repeatedNumbers: string[];
  /** Keys whose stored record is not the one the technician was told. */
  wrongIds: string[];
};

/**
 * What a user would see afterwards, read back through a BFF per agency: every collection of the
 * run once (by its marker), with the id its technician was given, and no collection number
 * twice in an agency-year (the run's and everything already there).
 */
export async function checkStored(url: string, load: LoadResult): Promise<StoredCheck> {
  const check: StoredCheck = { rowsPerMarker: new Map(), repeatedNumbers: [], wrongIds: [] };
  for (const username of ['demo-tech', 'neighbor-manager']) {
    const tech = await signIn(url, username);
    const seen = new Map<string, number>();
    for (let page = 1; ; page++) {
      const query =
        'fields[]=collection_num&fields[]=surv_year&fields[]=comments&pageSize=1000' +
        `&page=${page}&sort=id`;
      const res = await request(`${url}/api/v1/arthropod/collection?${query}`, {
        dispatcher: clients,
        headers: { origin: url, 'x-csrf': '1', cookie: tech.cookie },
      });
      const list = (await res.body.json()) as {
        rows: Array<{ id: number; collection_num: number; surv_year: number; comments: string }>;
      };
      if (res.statusCode !== 200) throw new Error(`list ${res.statusCode}`);
      for (const row of list.rows) {
        const n = `${tech.agency}/${row.surv_year}/${row.collection_num}`;
        seen.set(n, (seen.get(n) ?? 0) + 1);
        if (row.comments?.startsWith(`${load.runId} `)) {
          const ids = check.rowsPerMarker.get(row.comments) ?? [];
          ids.push(row.id);
          check.rowsPerMarker.set(row.comments, ids);
        }
      }
      if (list.rows.length < 1000) break;
    }
    for (const [n, count] of seen) if (count > 1) check.repeatedNumbers.push(n);
  }
  for (const [key, told] of load.created) {
    const stored = check.rowsPerMarker.get(told.marker);
    if (!stored || stored.length !== 1 || stored[0] !== told.id) check.wrongIds.push(key);
  }
  return check;
}
