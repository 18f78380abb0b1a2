import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Database } from '../db/database';
import { openDatabase } from '../db/open-database';
import { buildRecords } from './app';
import { parseRecordsEnv, type RecordsEnv } from './env';
import { seedIfEmpty, type SeedResult } from './seed';

export type DemoCredentials = Extract<SeedResult, { created: true }>['credentials'];

export type RunningRecords = {
  /** Base URL, e.g. http://127.0.0.1:8081 (the actual port when RECORDS_PORT is 0). */
  url: string;
  app: FastifyInstance;
  db: Database;
  /** The demo sign-in when this start seeded the database, else null. Print it once. */
  demoCredentials: DemoCredentials | null;
  close(): Promise<void>;
};

export type StartOptions = {
  logger?: FastifyServerOptions['logger'];
  /** Seed demo sites and activity into an empty database (default true). */
  demoData?: boolean;
};

/**
 * Opens the database (PGlite in TRAPLINE_DATA_DIR, or DATABASE_URL), migrates, seeds an empty
 * database, and listens. Missing env keys take their defaults, so `startRecordsServer({
 * RECORDS_PORT: 0 })` works in tests.
 */
export async function startRecordsServer(
  env: Partial<RecordsEnv> = {},
  options: StartOptions = {},
): Promise<RunningRecords> {
  const cfg: RecordsEnv = { ...parseRecordsEnv({}), ...env };
  const db = await openDatabase(
    cfg.DATABASE_URL ? { databaseUrl: cfg.DATABASE_URL } : { dataDir: cfg.TRAPLINE_DATA_DIR },
  );
  let app: FastifyInstance | undefined;
  try {
    const seed = await seedIfEmpty(db, {
      demoPassword: cfg.TRAPLINE_DEMO_PASSWORD,
      dataDir: cfg.TRAPLINE_DATA_DIR,
      demoData: options.demoData,
    });
    const https =
      cfg.TLS_CERT && cfg.TLS_KEY
        ? { cert: readFileSync(cfg.TLS_CERT), key: readFileSync(cfg.TLS_KEY) }
        : null;
    app = await buildRecords({
      db,
      tokenTtlSeconds: cfg.TRAPLINE_TOKEN_TTL_S,
      renewWindowSeconds: cfg.TRAPLINE_RENEW_WINDOW_S,
      trustProxy: cfg.TRUST_PROXY,
      https,
      logger: options.logger ?? true,
    });
    await app.listen({ port: cfg.RECORDS_PORT, host: cfg.HOST });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : cfg.RECORDS_PORT;
    const host = cfg.HOST.includes(':') ? `[${cfg.HOST}]` : cfg.HOST;
    const running = app;
    return {
      url: `${https ? 'https' : 'http'}://${host}:${port}`,
      app,
      db,
      demoCredentials: seed.created ? seed.credentials : null,
      async close() {
        await running.close();
        await db.close();
      },
    };
  } catch (err) {
    await app?.close().catch(() => undefined);
    await db.close().catch(() => undefined);
    throw err;
  }
}

/** The lines to print once about the demo sign-in (never logged through pino). */
export function describeDemoCredentials(c: DemoCredentials): string {
  const who = c.usernames.join(', ');
  if (!c.generated) return `Demo accounts: ${who} (password from TRAPLINE_DEMO_PASSWORD)`;
  return [
    `Demo accounts: ${who}`,
    `Demo password: ${c.password}`,
    c.file
      ? `(also saved to ${c.file}, mode 0600; shown only this once)`
      : '(shown only this once)',
  ].join('\n');
}
