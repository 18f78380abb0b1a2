import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import pg from 'pg';
import { ROOT } from '../../../src/server/main';
import { migratedDataDir } from '../../helpers/migrated-data-dir';
import { nodeArgs, optimisingNodeArgs } from '../../helpers/node-process';

/** The demo accounts' password in every stack started here. */
export const LOAD_PASSWORD = 'scale-out-demo-password';

export type ScaleOutStack = {
  /** Each BFF's URL: one per worker (one for a plain `npm start`). */
  bffUrls: string[];
  /** What the stack runs on, for printing: "PGlite, 1 process" / "PostgreSQL, 2 processes". */
  label: string;
  /** The manager's (or the single process's) PID: the one to signal. */
  pid: number;
  output(): string;
  close(): Promise<void>;
};

/**
 * `npm start` as users run it, as a child process: on the embedded database (`workers` 1, no
 * `databaseUrl`), or on a fresh database of the PostgreSQL server at `adminUrl` with
 * `--workers N`. node itself with tsx as its loader, so the PID is the server's own.
 */
export async function startScaleOutStack(options: {
  workers: number;
  adminUrl?: string;
  /**
   * A test's sample, over in a second (nodeArgs: Liftoff only, 5.5 CPU-s a start and run instead
   * of 6.7); the bench's load keeps V8's optimising tier.
   */
  shortLived?: boolean;
}): Promise<ScaleOutStack> {
  const dataDir = migratedDataDir('trapline-scale-');
  const database = options.adminUrl ? await createDatabase(options.adminUrl) : null;
  const workers = options.workers > 1 ? ['--workers', String(options.workers)] : [];
  const args = (options.shortLived ? nodeArgs : optimisingNodeArgs)(
    'src/server/main.ts',
    ...workers,
  );
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      RECORDS_PORT: '0',
      LOG_LEVEL: 'silent',
      TRAPLINE_DATA_DIR: dataDir,
      TRAPLINE_DEMO_PASSWORD: LOAD_PASSWORD,
      ...(database ? { DATABASE_URL: database.url } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const cleanUp = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const banner = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        out += chunk.toString('utf8');
        if (/Demo accounts/.test(out)) resolve(out);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      void exited.then(() => reject(new Error(`npm start exited before listening:\n${out}`)));
    });
    const bffUrls =
      options.workers > 1
        ? (/sharing one PostgreSQL: (.*)/.exec(banner)?.[1] ?? '').split(', ')
        : [/Trapline is running at (\S+)/.exec(banner)?.[1] ?? ''];
    if (bffUrls.length !== options.workers || bffUrls.some((u) => !u.startsWith('http'))) {
      throw new Error(`no URLs in the banner:\n${banner}`);
    }
    const n = options.workers;
    return {
      bffUrls,
      label: `${database ? 'PostgreSQL' : 'PGlite'}, ${n} process${n > 1 ? 'es' : ''}`,
      pid: child.pid ?? 0,
      output: () => out,
      close: cleanUp,
    };
  } catch (err) {
    await cleanUp();
    throw err;
  }
}

/** A new, empty database on the server at `adminUrl`, dropped by `drop`. */
async function createDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `trapline_scale_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}
