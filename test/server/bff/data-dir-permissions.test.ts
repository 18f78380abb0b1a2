import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '../../../src/server/bff/env';
import { loadSessionKey } from '../../../src/server/bff/session-key';
import { openDatabase } from '../../../src/server/db/open-database';
import { startStack } from '../../../src/server/main';
import { buildTestRecords, type TestRecords } from '../helpers/records-app';

/**
 * TRAPLINE_DATA_DIR holds the embedded databases (password hashes, sessions, the journal), the
 * session key and the demo credentials. The embedded database writes its files world-readable
 * and world-writable (0666), so the directory itself must shut other users out: 0700, whether
 * `npm start` creates it or finds it (as a first start under umask 022 left it, 0755).
 */

const mode = (path: string) => statSync(path).mode & 0o777;
const root = mkdtempSync(join(tmpdir(), 'trapline-data-dir-'));
let records: TestRecords;

beforeAll(async () => {
  records = await buildTestRecords();
  await records.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await records?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the data dir', () => {
  it('is made private (0700) by npm start when it was left open to others', async () => {
    const dataDir = join(root, 'existing');
    const db = await openDatabase({ dataDir });
    await db.close();
    chmodSync(dataDir, 0o755);
    const stack = await startStack(
      parseEnv({
        UPSTREAM_URL: `http://127.0.0.1:${(records.app.server.address() as AddressInfo).port}`,
        TRAPLINE_DATA_DIR: dataDir,
        PORT: '0',
        LOG_LEVEL: 'silent',
      }),
      { staticRoot: null },
    );
    try {
      expect(mode(dataDir).toString(8)).toBe('700');
      expect(mode(join(dataDir, 'session-key')).toString(8)).toBe('600');
    } finally {
      await stack.close();
    }
    // Two embedded databases made on disk (the dir's, then the BFF's): ~34 s on a loaded 2-core
    // machine, past the default limit. A hang is still caught.
  }, 120_000);

  it('is created 0700 when the session key is its first file', () => {
    const dataDir = join(root, 'fresh', 'nested');
    mkdirSync(join(root, 'fresh'));
    loadSessionKey(undefined, dataDir);
    expect(mode(dataDir).toString(8)).toBe('700');
  });
});
