import { startBffStack, type BffStack } from '../../server/bff/helpers/bff-stack';
import { cookieFrom } from '../../server/bff/helpers/http';
import { contractProblems } from './check-answer';
import { burst, nextRequest, RESOURCES, type FuzzRequest } from './endpoints';
import { FuzzWorld, type Actor, type Resource } from './fuzz-world';
import { toJsonText } from './hostile-values';
import { checkInvariants, type Violation } from './invariants';
import { validCreate } from './record-bodies';
import { SeededRandom } from './seeded-random';
import { fuzzAgent, sendRequest, type Answer, type Outcome } from './send-request';

export type SoakOptions = {
  requests: number;
  seed: number;
  /** Requests in flight at once. */
  concurrency?: number;
  /** A request not answered within this is a hang. */
  timeoutMs?: number;
  /** Share of draws that are a burst of concurrent creates. */
  burstRate?: number;
  log?: (line: string) => void;
};

export type Finding = { what: string; request: string };

export type SoakReport = {
  seed: number;
  requests: number;
  direct: number;
  throughBff: number;
  hostile: number;
  byStatus: Map<number, number>;
  serverErrors: Finding[];
  hangs: Finding[];
  connectionErrors: Finding[];
  unsendable: number;
  contractViolations: Finding[];
  burstProblems: Finding[];
  bursts: number;
  violations: Violation[];
  missingRoutes: string[];
  routesCovered: number;
  durationMs: number;
  latencyMs: { p50: number; p99: number; max: number };
  /** The five slowest answers, slowest first. */
  slowest: Finding[];
};

/**
 * The fuzz/soak run: the real records service (PGlite) and the real BFF over real HTTP, a seeded
 * stream of valid and damaged requests to every route of both, then the database invariants.
 */
export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const log = options.log ?? (() => {});
  const stack = await startBffStack();
  try {
    return await soak(stack, options, log);
  } finally {
    await stack.close();
  }
}

async function soak(
  stack: BffStack,
  options: SoakOptions,
  log: (l: string) => void,
): Promise<SoakReport> {
  const rng = new SeededRandom(options.seed);
  const timeoutMs = options.timeoutMs ?? 15_000;
  const concurrency = options.concurrency ?? 8;
  const burstRate = options.burstRate ?? 0.02;
  const agent = fuzzAgent();
  const origins = { records: stack.recordsUrl, bff: stack.url };
  const world = await setUpWorld(stack, rng, agent, timeoutMs);
  log(
    `world ready: ${[1, 2].map((a) => `agency ${a} ${JSON.stringify(Object.fromEntries(Object.entries(world.of(a).live).map(([k, v]) => [k, v.length])))}`).join('; ')}`,
  );

  const report: SoakReport = {
    seed: options.seed,
    requests: 0,
    direct: 0,
    throughBff: 0,
    hostile: 0,
    byStatus: new Map(),
    serverErrors: [],
    hangs: [],
    connectionErrors: [],
    unsendable: 0,
    contractViolations: [],
    burstProblems: [],
    bursts: 0,
    violations: [],
    missingRoutes: [],
    routesCovered: 0,
    durationMs: 0,
    latencyMs: { p50: 0, p99: 0, max: 0 },
    slowest: [],
  };
  const latencies: number[] = [];
  const routesHit = new Set<string>();

  const record = (req: FuzzRequest, out: Outcome) => {
    if (out.kind === 'unsendable') {
      report.unsendable += 1;
      return;
    }
    report.requests += 1;
    if (req.via === 'records') report.direct += 1;
    else report.throughBff += 1;
    if (req.hostile) report.hostile += 1;
    routesHit.add(`${req.via} ${req.route}`);
    if (out.kind !== 'answer') {
      (out.kind === 'hang' ? report.hangs : report.connectionErrors).push(finding(out.detail, req));
      return;
    }
    latencies.push(out.ms);
    noteSlow(report.slowest, out.ms, req);
    report.byStatus.set(out.status, (report.byStatus.get(out.status) ?? 0) + 1);
    if (out.status >= 500)
      report.serverErrors.push(finding(`${out.status} ${out.text.slice(0, 200)}`, req));
    for (const p of contractProblems(req, out))
      report.contractViolations.push(finding(`${out.status}: ${p}`, req));
    if (out.status >= 200 && out.status < 300) learn(world, req, out);
  };
  const send = (req: FuzzRequest) => sendRequest(agent, origins[req.via], req, timeoutMs);

  const started = performance.now();
  let issued = 0;
  let lastLog = 0;
  const worker = async () => {
    while (issued < options.requests) {
      if (issued - lastLog >= 1000) {
        lastLog = issued;
        log(`${issued} requests, ${Math.round(performance.now() - started)} ms`);
      }
      if (options.requests - issued >= 5 && rng.chance(burstRate)) {
        const b = burst(rng, world, stack.url);
        issued += b.requests.length;
        report.bursts += 1;
        const outs = await Promise.all(b.requests.map(send));
        b.requests.forEach((r, i) => record(r, outs[i]));
        const problem = burstProblem(outs, b.sameKey);
        if (problem) report.burstProblems.push(finding(problem, b.requests[0]));
        continue;
      }
      const req = nextRequest(rng, world, stack.url);
      issued += 1;
      record(req, await send(req));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  report.durationMs = Math.round(performance.now() - started);
  await agent.close();

  report.violations = await checkInvariants(stack.records.db);
  const expected = expectedRoutes(stack);
  report.missingRoutes = expected.filter((r) => !routesHit.has(r));
  report.routesCovered = expected.length - report.missingRoutes.length;
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  report.latencyMs = { p50: at(0.5), p99: at(0.99), max: latencies[latencies.length - 1] ?? 0 };
  return report;
}

/** Every route both servers register that the fuzz must reach (HEAD twins and the app shell aside). */
function expectedRoutes(stack: BffStack): string[] {
  // The records service's own document: generated from the routes it registered.
  const { paths } = stack.records.app.swagger() as { paths: Record<string, object> };
  const records = Object.entries(paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((m) => `records ${m.toUpperCase()} ${path.replace('{id}', ':id')}`),
  );
  const bff = stack.bff.app.bffRoutes
    .filter((r) => r.method !== 'HEAD' && r.url.startsWith('/api'))
    .map((r) => `bff ${r.method} ${r.url}`);
  return [...new Set([...records, 'records GET /openapi.json', ...bff])].sort();
}

/** Same key: every 2xx names the same record. Same explicit number or code: at most one 2xx. */
function burstProblem(outs: Outcome[], sameKey: boolean): string | null {
  const ok = outs.filter(
    (o): o is Answer => o.kind === 'answer' && o.status >= 200 && o.status < 300,
  );
  if (sameKey) {
    const ids = new Set(ok.map((o) => idOf(o.text)));
    return ids.size > 1 ? `one Idempotency-Key, ${ids.size} records: ${[...ids].join(', ')}` : null;
  }
  return ok.length > 1
    ? `${ok.length} creates with one explicit number or code all succeeded: ${ok.map((o) => idOf(o.text)).join(', ')}`
    : null;
}

function idOf(text: string): unknown {
  try {
    return (JSON.parse(text) as { id?: unknown }).id;
  } catch {
    return text.slice(0, 40);
  }
}

function agencyOf(record: Record<string, unknown>, fallback: number): number {
  const a = record.agency;
  if (typeof a === 'number') return a;
  if (a && typeof a === 'object' && typeof (a as { id?: unknown }).id === 'number')
    return (a as { id: number }).id;
  return fallback;
}

/** Updates the world from a 2xx answer, so later requests name the records that now exist. */
function learn(world: FuzzWorld, req: FuzzRequest, a: Answer): void {
  const lesson = req.lesson;
  if (!lesson) return;
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(a.text) as Record<string, unknown>;
  } catch {
    // 204 and other empty answers
  }
  switch (lesson.kind) {
    case 'created':
    case 'updated':
      if (body && typeof body === 'object')
        world.learnCreated(agencyOf(body, lesson.agency), lesson.resource, body);
      return;
    case 'retired':
      world.learnRetired(agencyOf(body, lesson.agency), lesson.resource, lesson.id);
      return;
    case 'agency-token':
      if (typeof body.id === 'number') world.of(lesson.agency).agencyTokens.push(body.id);
      return;
    case 'agency-token-revoked': {
      const mine = world.of(lesson.agency);
      mine.agencyTokens = mine.agencyTokens.filter((id) => id !== lesson.id);
      return;
    }
    case 'spare-token':
      if (typeof body.token === 'string') {
        world.spareTokens.push(body.token);
        if (world.spareTokens.length > 20) world.spareTokens.shift();
      }
      return;
    case 'spare-session': {
      const cookie = cookieFrom({
        status: a.status,
        headers: a.headers,
        text: a.text,
        json: () => body as never,
      });
      if (cookie) {
        world.spareCookies.push(cookie);
        if (world.spareCookies.length > 20) world.spareCookies.shift();
      }
      return;
    }
  }
}

function noteSlow(slowest: Finding[], ms: number, req: FuzzRequest): void {
  if (slowest.length >= 5 && ms <= Number.parseInt(slowest[4].what, 10)) return;
  slowest.push(finding(`${ms} ms`, req));
  slowest.sort((a, b) => Number.parseInt(b.what, 10) - Number.parseInt(a.what, 10));
  slowest.length = Math.min(slowest.length, 5);
}

function finding(what: string, req: FuzzRequest): Finding {
  return { what, request: reproducer(req) };
}

/** The request as a line a person can replay (the body cut at 400 characters). */
export function reproducer(req: FuzzRequest): string {
  const headers = Object.entries(req.headers)
    .filter(([k]) => k !== 'accept')
    .map(
      ([k, v]) =>
        `${k}: ${k === 'authorization' || k === 'cookie' ? v.replace(/=?[A-Za-z0-9_-]{20,}/g, '=<…>') : v.slice(0, 80)}`,
    )
    .join(' | ');
  const body = req.body === undefined ? '' : ` body(${req.body.length}): ${req.body.slice(0, 400)}`;
  return `[${req.via}] ${req.method} ${req.path.slice(0, 400)} {${headers}}${body}`;
}

const PASSWORD = 'test-password-correct-horse';

/**
 * The actors (tokens and BFF sessions of demo-tech, demo-manager, neighbor-manager, and an agency
 * token) and a first set of records in agencies 1 and 2 made with valid requests, so the fuzz's
 * very first requests can already name real records of both agencies.
 */
async function setUpWorld(
  stack: BffStack,
  rng: SeededRandom,
  agent: ReturnType<typeof fuzzAgent>,
  timeoutMs: number,
) {
  const { records } = stack;
  const tokenOf = (u: string) => records.login(u);
  const manager = await tokenOf('demo-manager');
  const issued = await records.app.inject({
    method: 'POST',
    url: '/v1/agency/token',
    headers: records.auth(manager),
  });
  const agencyToken = (issued.json() as { token: string }).token;
  const actors: Actor[] = [
    {
      name: 'tech',
      agency: 1,
      token: await tokenOf('demo-tech'),
      cookie: await stack.signIn('demo-tech', PASSWORD),
    },
    {
      name: 'manager',
      agency: 1,
      token: manager,
      cookie: await stack.signIn('demo-manager', PASSWORD),
    },
    {
      name: 'neighbor',
      agency: 2,
      token: await tokenOf('neighbor-manager'),
      cookie: await stack.signIn('neighbor-manager', PASSWORD),
    },
    { name: 'agency-token', agency: 1, token: agencyToken, cookie: null },
  ];
  const world = new FuzzWorld(actors);
  // Each agency's Zero Site is a site like any other to the fuzz (rule 4 guards it, D6).
  const zero = await records.db.query<{ id: number; agency: number }>(
    `select id, agency from site where code = '000000'`,
  );
  for (const z of zero.rows) world.learnCreated(z.agency, 'site', { id: z.id });
  const plan: Array<[Resource, number]> = [
    ['site', 5],
    ['collection', 10],
    ['pool', 8],
    ['test', 5],
  ];
  for (const actor of [actors[1], actors[2]]) {
    for (const [resource, n] of plan) {
      for (let made = 0, tries = 0; made < n && tries < n * 10; tries++) {
        const body = validCreate(rng, world, actor.agency, resource);
        if (resource === 'collection')
          body.arthropods = [
            { species: 1, sex: 4, num_count: 40 },
            { species: 2, sex: 5, num_count: 20 },
          ];
        const req: FuzzRequest = {
          via: 'records',
          route: `POST ${RESOURCES[resource].base}`,
          method: 'POST',
          path: RESOURCES[resource].base,
          headers: { authorization: `Bearer ${actor.token}`, 'content-type': 'application/json' },
          body: toJsonText(body),
          expect: 'record',
          hostile: false,
        };
        const out = await sendRequest(agent, stack.recordsUrl, req, timeoutMs);
        if (out.kind === 'answer' && out.status === 201) {
          world.learnCreated(
            actor.agency,
            resource,
            JSON.parse(out.text) as Record<string, unknown>,
          );
          made += 1;
        }
      }
    }
  }
  return world;
}
