import { rmSync } from 'node:fs';
import { sessionInfo, type SessionInfo } from '../../src/shared/schemas/auth';
import { startChaosProxy, UPLOADS, type ChaosProxy } from './chaos-proxy';
import { FAULT_KINDS, type Fault, type FaultKind, type FaultPlan, type Side } from './fault-plan';
import { startServerProcess, type ServerProcess } from './server-process';
import { migratedDataDir } from '../helpers/migrated-data-dir';

export const CHAOS_USER = 'demo-manager';
const PASSWORD = 'chaos-matrix-password';
/** The BFF gives up on the records service after this long (a long upstream delay outlasts it). */
export const BFF_UPSTREAM_TIMEOUT_MS = 4000;

export type FaultCounts = Record<FaultKind, number>;
export const noFaults = (): FaultCounts =>
  Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as FaultCounts;

/** A sign-in: the cookie, and who it is (the app keeps that as the page's identity). */
export type Session = { cookie: string; agencyId: number; info: SessionInfo };

export type ChaosStack = {
  /** Where the tablet sends: the edge proxy in front of the BFF. */
  edgeUrl: string;
  /**
   * Faults for the seed now running, counted into `counts` as they are applied (those on photo
   * uploads into `photoCounts`); null for none.
   */
  setPlan(plan: FaultPlan | null, counts: FaultCounts, photoCounts?: FaultCounts): void;
  /** Both servers serve (after any restart in progress). */
  ready(): Promise<void>;
  /** Whether both servers serve now. */
  up(): boolean;
  /** Signs in at the BFF as the user would (retrying while it restarts): the session cookie. */
  signIn(): Promise<Session>;
  /** A GET on the BFF itself, past the edge proxy, signed in: for the photos' verdict only. */
  readBff(pathAndQuery: string): Promise<Response>;
  /** A GET on the records service itself, past every proxy: for the comparison only. */
  readRecords<T>(pathAndQuery: string): Promise<T>;
  /** Crashes nobody caused (each a finding), with their output. */
  crashes(): string[];
  /** The (re)starts that completed since the last call: `records service started in 24.3 s`. */
  restarts(): string[];
  close(): Promise<void>;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The real servers as child processes, each on its own PGlite data directory, with a chaos proxy
 * at both network edges:  tablet → edge proxy → BFF → upstream proxy → records service.
 * Kill faults SIGKILL a server; it restarts at once on the same data directory and the proxy in
 * front of it follows it to its new port.
 */
export async function startChaosStack(): Promise<ChaosStack> {
  const recordsDir = migratedDataDir('trapline-chaos-records-');
  const bffDir = migratedDataDir('trapline-chaos-bff-');
  let plan: FaultPlan | null = null;
  let counts = noFaults();
  let photoCounts = noFaults();
  let records: ServerProcess | null = null;
  let bff: ServerProcess | null = null;
  const proc = (t: 'bff' | 'records') => (t === 'bff' ? bff : records);
  const applicable = (f: Fault) =>
    f.kind === 'kill-bff' || f.kind === 'kill-records'
      ? Boolean(proc(f.kind === 'kill-bff' ? 'bff' : 'records')?.url())
      : true;
  // Photo uploads pass the edge proxy with the record traffic but are dealt their own deck.
  const lane = (side: 'edge' | 'upstream', path: string): Side =>
    side === 'edge' && path.startsWith(UPLOADS) ? 'uploads' : side;
  const hooks = (side: 'edge' | 'upstream') => ({
    decide: (method: string, path: string) =>
      plan?.next(lane(side, path), method, applicable) ?? null,
    injected: (kind: FaultKind, path: string) => {
      (lane(side, path) === 'uploads' ? photoCounts : counts)[kind] += 1;
    },
    missed: (fault: Fault) => plan?.missed(fault),
    kill: (t: 'bff' | 'records') => proc(t)?.killAndRestart() ?? false,
  });
  // Targets are set once each server prints its URL; until then requests find nobody there.
  const nowhere = 'http://127.0.0.1:9';
  const upstream: ChaosProxy = await startChaosProxy('upstream', nowhere, hooks('upstream'));
  const edge: ChaosProxy = await startChaosProxy('edge', nowhere, hooks('edge'));
  records = startServerProcess(
    'records service',
    'test/chaos/records-process.ts',
    { TRAPLINE_DATA_DIR: recordsDir, TRAPLINE_DEMO_PASSWORD: PASSWORD },
    (url) => upstream.setTarget(url),
  );
  bff = startServerProcess(
    'BFF',
    'test/chaos/bff-process.ts',
    {
      UPSTREAM_URL: upstream.url,
      TRAPLINE_DATA_DIR: bffDir,
      // Short timeouts keep a killed BFF's in-flight lease (connect + response + 5 s) short.
      TRAPLINE_UPSTREAM_CONNECT_TIMEOUT_MS: '1000',
      TRAPLINE_UPSTREAM_TIMEOUT_MS: String(BFF_UPSTREAM_TIMEOUT_MS),
    },
    (url) => edge.setTarget(url),
  );
  const servers = [records, bff];
  const ready = async () => {
    for (const s of servers) await s.ready();
  };
  try {
    await ready();
  } catch (err) {
    for (const s of servers) await s.stop();
    await edge.close();
    await upstream.close();
    throw err;
  }

  let token: string | null = null;
  const recordsLogin = async (url: string) => {
    const res = await fetch(`${url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: CHAOS_USER, password: PASSWORD }),
    });
    if (!res.ok) throw new Error(`records /login answered ${res.status}`);
    return ((await res.json()) as { token: string }).token;
  };

  let bffCookie: string | null = null;
  const stack: ChaosStack = {
    edgeUrl: edge.url,
    setPlan(next, into, photosInto = noFaults()) {
      plan = next;
      counts = into;
      photoCounts = photosInto;
    },
    ready,
    up: () => servers.every((s) => s.url() !== null),
    async signIn() {
      const deadline = Date.now() + 180_000;
      for (;;) {
        const url = await bff!.ready();
        try {
          const res = await fetch(`${url}/api/session`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-csrf': '1', origin: url },
            body: JSON.stringify({ username: CHAOS_USER, password: PASSWORD }),
          });
          if (res.status === 200) {
            const info = sessionInfo.parse(await res.json());
            const cookie = res.headers
              .getSetCookie()
              .map((c) => c.split(';', 1)[0])
              .join('; ');
            return { cookie, agencyId: info.agency.id, info };
          }
          if (res.status < 500 && res.status !== 429) {
            throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
          }
        } catch (err) {
          if (err instanceof Error && err.message.startsWith('sign-in answered')) throw err;
        }
        if (Date.now() > deadline) throw new Error('could not sign in within 180 s');
        await sleep(200);
      }
    },
    async readBff(pathAndQuery) {
      // A session of its own, made again if a restarted BFF or an expiry lost it.
      for (let attempt = 0; ; attempt += 1) {
        bffCookie ??= (await stack.signIn()).cookie;
        const url = await bff!.ready();
        const res = await fetch(`${url}${pathAndQuery}`, {
          headers: { cookie: bffCookie, 'x-csrf': '1' },
        });
        if (res.status !== 401 || attempt > 0) return res;
        bffCookie = null;
      }
    },
    async readRecords<T>(pathAndQuery: string): Promise<T> {
      const url = await records!.ready();
      token ??= await recordsLogin(url);
      const res = await fetch(`${url}${pathAndQuery}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      if (!res.ok)
        throw new Error(`GET ${pathAndQuery} answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as T;
    },
    crashes: () => servers.flatMap((s) => s.crashes),
    restarts: () =>
      servers.flatMap((s) =>
        s.takeStartSeconds().map((t) => `${s.name} started in ${t.toFixed(1)} s`),
      ),
    async close() {
      for (const s of servers) await s.stop();
      await edge.close();
      await upstream.close();
      rmSync(recordsDir, { recursive: true, force: true });
      rmSync(bffDir, { recursive: true, force: true });
    },
  };
  return stack;
}
