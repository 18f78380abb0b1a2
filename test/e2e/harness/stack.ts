import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../src/server/db/database';
import { openDatabase } from '../../../src/server/db/open-database';
import { openMigratedPglite } from '../../server/helpers/test-database';
import { startBff, type RunningBff } from '../../../src/server/bff/app';
import { buildRecords } from '../../../src/server/records/app';
import { startFaultProxy, type FaultProxy } from './fault-proxy';
import { DIST_DIR } from './paths';
import { countRequests, type RequestCounter } from './request-counter';
import { seedTestAccounts } from '../../helpers/seed-test-accounts';

/** Password of every seeded account in the e2e stack. */
export const E2E_PASSWORD = 'e2e-password-field-tablet';

/**
 * Tiles point at a closed loopback port: the machine has no internet, and a refused connection
 * fails at once where a DNS lookup might hang. The map must work without tiles either way.
 */
export const E2E_TILE_URL = 'https://127.0.0.1:9/{z}/{x}/{y}.png';

/**
 * The servers' clock: real time plus an offset a test moves forward, so "the token ran out" is
 * a jump, not a wait that a loaded machine can outrun (sign-in taking longer than a short TTL).
 */
export type StackClock = {
  now(): Date;
  /** Moves both servers' clock forward to `ms` (epoch milliseconds); never backwards. */
  jumpTo(ms: number): void;
};

function offsetClock(): StackClock {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    jumpTo(ms) {
      offsetMs = Math.max(offsetMs, ms - Date.now());
    },
  };
}

/**
 * How far past its token's expiry a sign-in has run out: the BFF renews a token on the tablet's
 * next request for a week after its expiry (TRAPLINE_RENEW_WINDOW_S), so "the token ran out" is a
 * tablet left unused past that week.
 */
export const SIGN_IN_RUNS_OUT_MS = 7 * 86_400_000 + 60_000;

export type StackOptions = {
  /** Put a fault-injecting TCP proxy between the BFF and the records service. */
  faultProxy?: boolean;
  /** Keep the embedded database in a temp directory (default in memory). */
  onDisk?: boolean;
  /** Map tiles from here (a local tile server) instead of the closed port E2E_TILE_URL. */
  tileUrl?: string;
  /** The tile source allows bulk downloads (offline map areas are offered). */
  tileBulkDownload?: boolean;
  /** Path of a PMTiles archive the BFF serves as the map (TILE_PMTILES). */
  tileArchive?: string;
  /** How long the BFF waits for the records service's answer (default 10 s, see below). */
  upstreamTimeoutMs?: number;
};

export type Stack = {
  /** The BFF, which serves the built app and /api: open this in the browser. */
  appUrl: string;
  /** The records service itself (for the API client and for counting). */
  recordsUrl: string;
  password: string;
  /** The clock the records service and the BFF both read. */
  clock: StackClock;
  /** Requests that reached the records service. */
  records: RequestCounter;
  proxy: FaultProxy | null;
  db: Database;
  recordsApp: FastifyInstance;
  bff: RunningBff;
  /**
   * Stops the BFF and starts it again on the same port, database and session key with other
   * map settings: what an office does when it changes TILE_URL and restarts Trapline. Tablets
   * keep their origin, service worker and session.
   */
  restartBff(
    map: Pick<StackOptions, 'tileUrl' | 'tileBulkDownload' | 'tileArchive'>,
  ): Promise<void>;
  stop(): Promise<void>;
};

/**
 * The whole system in this process on ephemeral ports: the records service on embedded
 * PostgreSQL (PGlite) seeded with lookups and the demo accounts, and the BFF serving dist/ with
 * the records service (or the fault proxy in front of it) as its upstream. Both share one
 * database, as `npm start` does. Call `stop()` in afterAll.
 */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const dataDir = options.onDisk ? await mkdtemp(join(tmpdir(), 'trapline-e2e-data-')) : undefined;
  const db = dataDir ? await openDatabase({ dataDir }) : await openMigratedPglite();
  await seedTestAccounts(db, E2E_PASSWORD);

  const clock = offsetClock();
  const recordsApp = await buildRecords({ db, now: clock.now });
  const recordsUrl = await recordsApp.listen({ port: 0, host: '127.0.0.1' });
  const records = countRequests(recordsApp.server);
  const proxy = options.faultProxy ? await startFaultProxy(recordsUrl) : null;

  // One key for every BFF of this stack: sessions outlive a restart, as under `npm start`.
  const sessionKey = randomBytes(32);
  const bffWith = (
    map: Pick<StackOptions, 'tileUrl' | 'tileBulkDownload' | 'tileArchive'>,
    port = 0,
  ) =>
    startBff({
      db,
      now: clock.now,
      port,
      sessionKey,
      upstreamUrl: proxy?.url ?? recordsUrl,
      staticRoot: DIST_DIR,
      tileUrl: map.tileUrl ?? E2E_TILE_URL,
      tileBulkDownload: map.tileBulkDownload,
      tileArchive: map.tileArchive,
      // Short upstream timeouts: a lost answer must turn into a retry within a test's patience.
      upstreamConnectTimeoutMs: 2_000,
      upstreamTimeoutMs: options.upstreamTimeoutMs ?? 10_000,
    });
  const bff = await bffWith(options);

  const stack: Stack = {
    appUrl: bff.url,
    recordsUrl,
    password: E2E_PASSWORD,
    clock,
    records,
    proxy,
    db,
    recordsApp,
    bff,
    async restartBff(map) {
      const port = Number(new URL(stack.appUrl).port);
      await stack.bff.close();
      stack.bff = await bffWith(map, port);
    },
    async stop() {
      await stack.bff.close();
      await proxy?.close();
      await recordsApp.close();
      await db.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
  return stack;
}
