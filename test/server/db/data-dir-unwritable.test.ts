import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/server/db/open-database';
import { startRecordsThread } from '../../../src/server/records/records-thread';

/**
 * A data directory the embedded database cannot use: its files belong to another user (Trapline
 * once started with sudo), a full disk, a read-only mount. PGlite fails with its file system's
 * bare `ErrnoError { errno: 2 }`, which `npm start` printed as "[object Object]". The start must
 * say what is wrong with which directory, in a line.
 */
const root = mkdtempSync(join(tmpdir(), 'trapline-unwritable-'));
afterAll(() => {
  chmodSync(join(root, 'pgdata'), 0o700);
  rmSync(root, { recursive: true, force: true });
});

describe('a data directory whose database cannot be opened', () => {
  it('refuses with the reason and the directory, as npm start prints it', async () => {
    mkdirSync(join(root, 'pgdata'));
    chmodSync(join(root, 'pgdata'), 0o000);
    const threaded = await startRecordsThread(
      { TRAPLINE_DATA_DIR: root, RECORDS_PORT: 0 },
      { logLevel: 'silent' },
    ).then(
      async (r) => {
        await r.close();
        return 'started';
      },
      (e: Error) => e.message,
    );
    expect(threaded).not.toContain('[object Object]');
    expect(threaded).toContain('EACCES');
    const err = await openDatabase({ dataDir: root }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain(join(root, 'pgdata'));
    expect((err as Error).message).toContain('EACCES');
  }, 60_000);
});
