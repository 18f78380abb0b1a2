/**
 * `npm start`: builds the app if dist/ is missing, starts the records service (unless
 * UPSTREAM_URL names another one), then the BFF, and prints where to go and how to sign in.
 *
 * The records service runs in a process of its own (records-process.ts): BFF work never takes its
 * capacity (a core of its own, as behind a reverse proxy), and the two share no heap, so a BFF
 * that runs out of memory never takes the records service down mid-request with it, and a
 * records service that dies is reported and restarted while the BFF serves on. The BFF's
 * tables (sessions, idempotency journal) are in the BFF's database: on PostgreSQL the same
 * database as the records service, so several BFF processes share sessions and the journal; on
 * the embedded database a PGlite of its own in TRAPLINE_DATA_DIR/bff (a PGlite belongs to one
 * process).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startBff, type RunningBff } from './bff/app';
import { makeDataDirPrivate } from './bff/data-dir';
import { parseEnv, type BffEnv } from './bff/env';
import { loadSessionKey } from './bff/session-key';
import { startWorkers, WORKER_INDEX_ENV, type WorkerMessage } from './cluster/start-workers';
import { parseWorkers, planWorkers, workersRefused } from './cluster/worker-plan';
import type { Database } from './db/database';
import { openDatabase } from './db/open-database';
import { closeOnSignals } from './close-on-signals';
import { EnvError } from './env-error';
import { parseRecordsEnv } from './records/env';
import { startRecordsProcess, type RecordsProcess } from './records/records-process';
import { describeDemoCredentials } from './records/server';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The BFF's own database: DATABASE_URL's, or the embedded one in `dataDir`. It holds sessions
 * and the idempotency journal, kept small by housekeeping: 16MB of buffers, not the 128MB PGlite
 * zeroes by default (~110MB less memory and ~0.5 s less start on a machine slow to hand it out).
 */
function openBffDatabase(env: BffEnv, dataDir: string): Promise<Database> {
  return openDatabase(
    env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir, sharedBuffers: '16MB' },
  );
}

export type RunningStack = {
  bff: RunningBff;
  records: RecordsProcess | null;
  /** Human lines to print once: URL and demo sign-in. */
  banner: string;
  close(): Promise<void>;
};

/** Runs `vite build` (the local binary, not npx, so its PID is ours) when dist/index.html is missing. */
export async function buildAppIfMissing(): Promise<void> {
  if (existsSync(join(ROOT, 'dist', 'index.html'))) return;
  console.log('Building the app (first start) …');
  const child = spawn(join(ROOT, 'node_modules', '.bin', 'vite'), ['build'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  const code = await new Promise<number | null>((done) => child.on('exit', done));
  if (code !== 0) throw new Error(`vite build failed (exit ${code})`);
}

/** Starts records service (unless UPSTREAM_URL) and BFF. `staticRoot: null` serves /api only (dev). */
export async function startStack(
  env: BffEnv,
  options: { staticRoot: string | null },
): Promise<RunningStack> {
  // Before anything writes there: the databases, the session key, the demo credentials.
  makeDataDirPrivate(env.TRAPLINE_DATA_DIR);
  let records: RecordsProcess | null = null;
  let db: Database;
  let upstreamUrl: string;
  if (env.UPSTREAM_URL) {
    db = await openBffDatabase(env, env.TRAPLINE_DATA_DIR);
    upstreamUrl = env.UPSTREAM_URL;
  } else {
    // The records service stays on loopback HTTP beside the BFF: TLS, if any, is the BFF's.
    const recordsEnv = { ...parseRecordsEnv(process.env), TLS_CERT: undefined, TLS_KEY: undefined };
    records = await startRecordsProcess(recordsEnv, { logLevel: env.LOG_LEVEL });
    upstreamUrl = records.url;
    try {
      db = await openBffDatabase(env, join(env.TRAPLINE_DATA_DIR, 'bff'));
    } catch (err) {
      await records.close();
      throw err;
    }
  }
  let bff: RunningBff;
  try {
    bff = await startBff({
      db,
      upstreamUrl,
      tileUrl: env.TILE_URL,
      tileBulkDownload: env.TILE_BULK_DOWNLOAD === 'allowed',
      tileArchive: env.TILE_PMTILES,
      tileAttribution: env.TILE_ATTRIBUTION,
      staticRoot: options.staticRoot,
      upstreamConnectTimeoutMs: env.TRAPLINE_UPSTREAM_CONNECT_TIMEOUT_MS,
      upstreamTimeoutMs: env.TRAPLINE_UPSTREAM_TIMEOUT_MS,
      lookupTtlMs: env.TRAPLINE_LOOKUP_TTL_S * 1000,
      lookupCatalog: env.TRAPLINE_LOOKUP_CATALOG,
      maxConnectionsPerAddress: env.TRAPLINE_MAX_CONNECTIONS_PER_ADDRESS,
      photoQuotaBytes: env.TRAPLINE_PHOTO_QUOTA_MB * 1024 * 1024,
      sessionIdleMs: env.TRAPLINE_RENEW_WINDOW_S * 1000,
      https:
        env.TLS_CERT && env.TLS_KEY
          ? { cert: readFileSync(env.TLS_CERT), key: readFileSync(env.TLS_KEY) }
          : null,
      logger: { level: env.LOG_LEVEL },
      sessionKey: loadSessionKey(env.TRAPLINE_SESSION_KEY, env.TRAPLINE_DATA_DIR),
      port: env.PORT,
      host: env.HOST,
    });
  } catch (err) {
    await db.close();
    if (records) await records.close();
    throw err;
  }
  const lines = [`Trapline is running at ${bff.url}`];
  if (records?.demoCredentials) lines.push(describeDemoCredentials(records.demoCredentials));
  else if (records) {
    lines.push(
      'Demo accounts: demo-manager, demo-tech (password from TRAPLINE_DEMO_PASSWORD, or in ' +
        `${join(env.TRAPLINE_DATA_DIR, 'demo-credentials.txt')} from the first start)`,
    );
  } else lines.push(`Sign in with your account on ${env.UPSTREAM_URL}`);
  let closed: Promise<void> | null = null;
  return {
    bff,
    records,
    banner: lines.join('\n'),
    close() {
      // Once: a signal and the dev server's exit may both ask.
      closed ??= (async () => {
        await bff.close();
        await db.close();
        if (records) await records.close();
      })();
      return closed;
    },
  };
}

/** Parses both environments, printing every problem and exiting 1 when anything is wrong. */
export function loadEnvOrExit(): BffEnv {
  const problems: string[] = [];
  let env: BffEnv | undefined;
  try {
    env = parseEnv();
  } catch (err) {
    if (!(err instanceof EnvError)) throw err;
    problems.push(...err.problems);
  }
  if (!process.env.UPSTREAM_URL) {
    try {
      parseRecordsEnv(process.env);
    } catch (err) {
      if (!(err instanceof EnvError)) throw err;
      problems.push(...err.problems.filter((p) => !problems.includes(p)));
    }
  }
  if (!env || problems.length > 0) {
    console.error(new EnvError(problems).message);
    process.exit(1);
  }
  return env;
}

async function main(): Promise<void> {
  const env = loadEnvOrExit();
  const workers = parseWorkers(process.argv.slice(2));
  const refused = typeof workers === 'string' ? workers : workersRefused(workers, env);
  if (refused !== null) {
    console.error(refused);
    process.exit(2);
  }
  await buildAppIfMissing();
  if (typeof workers === 'number' && workers > 1) {
    // The first start writes the session key file every worker's BFF must share.
    makeDataDirPrivate(env.TRAPLINE_DATA_DIR);
    loadSessionKey(env.TRAPLINE_SESSION_KEY, env.TRAPLINE_DATA_DIR);
    const running = await startWorkers(
      fileURLToPath(import.meta.url),
      planWorkers(workers, env.PORT, env.RECORDS_PORT),
    );
    closeOnSignals(running.close);
    console.log(`\n${running.banner}\n`);
    return;
  }
  const stack = await startStack(env, { staticRoot: join(ROOT, 'dist') });
  closeOnSignals(stack.close);
  if (process.env[WORKER_INDEX_ENV] !== undefined && process.send) {
    // A worker of `--workers N`: the manager prints, and a manager gone is the signal to stop.
    const ready: WorkerMessage = {
      type: 'listening',
      url: stack.bff.url,
      signIn: stack.banner.split('\n').slice(1).join('\n'),
      seeded: Boolean(stack.records?.demoCredentials),
    };
    process.send(ready);
    process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
    return;
  }
  console.log(`\n${stack.banner}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
