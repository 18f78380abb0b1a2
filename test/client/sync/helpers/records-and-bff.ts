import { afterAll, beforeAll } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../../src/server/db/database';
import { startBff, type RunningBff } from '../../../../src/server/bff/app';
import { buildRecords } from '../../../../src/server/records/app';
import { openMigratedPglite } from '../../../server/helpers/test-database';
import { seedTestAccounts } from '../../../helpers/seed-test-accounts';

/** The servers' clocks, for a test that moves one or both; each keeps the real time if not given. */
export type ServerClocks = { records?: () => Date; bff?: () => Date };

export type RecordsAndBff = {
  /** The one database both servers use, for a test to read what reached the server. */
  db: Database;
  /** The BFF, where a tablet's engine and a browser session go. */
  bffUrl: string;
};

/**
 * The records service on PGlite in memory and the BFF in front of it, each over real HTTP on an
 * ephemeral port, sharing one database seeded with the lookups and the demo accounts (all with
 * `password`); no static app, no request log. The e2e harness's stack (tabletsOnStack) gives both
 * servers one clock that only moves forward; here a test gives each server a clock of its own
 * (`clocks`), which it may also set back. Registers its own beforeAll and afterAll: call it once,
 * at the top of a test file, before the file's own hooks that use the servers (Vitest runs
 * afterAll hooks in reverse order, so those run before the servers close).
 */
export function recordsAndBff(password: string, clocks: ServerClocks = {}): RecordsAndBff {
  const servers = {} as RecordsAndBff;
  let records: FastifyInstance | undefined;
  let bff: RunningBff | undefined;

  beforeAll(async () => {
    servers.db = await openMigratedPglite();
    await seedTestAccounts(servers.db, password);
    records = await buildRecords({ db: servers.db, now: clocks.records });
    const recordsUrl = await records.listen({ port: 0, host: '127.0.0.1' });
    bff = await startBff({
      db: servers.db,
      upstreamUrl: recordsUrl,
      staticRoot: null,
      logger: false,
      now: clocks.bff,
    });
    servers.bffUrl = bff.url;
  }, 60_000);

  afterAll(async () => {
    await bff?.close();
    await records?.close();
    await servers.db?.close();
  });

  return servers;
}
