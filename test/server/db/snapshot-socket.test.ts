import { existsSync, rmSync, statSync } from 'node:fs';
import { createConnection } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/server/db/open-database';
import { openPglite } from '../../../src/server/db/pglite-database';
import { requestSnapshot, snapshotSocketPath } from '../../../src/server/db/snapshot-socket';
import { migratedDataDir } from '../../helpers/migrated-data-dir';

/**
 * The socket through which the process holding an embedded database hands out snapshots
 * (`npm run records -- backup` while Trapline runs): only its user can open it, it answers
 * nothing but a snapshot, and the snapshot is the database as committed, opened elsewhere.
 */
const dataDir = migratedDataDir('trapline-snapshot-');
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function ask(path: string, line: string): Promise<string> {
  return new Promise((done, fail) => {
    let answer = '';
    const s = createConnection(path, () => s.write(line));
    s.setEncoding('latin1');
    s.on('data', (c: string) => (answer += c));
    s.on('end', () => done(answer));
    s.on('error', fail);
  });
}

describe('snapshot socket of an embedded database', () => {
  it('serves the committed database to its own user only, and goes with the database', async () => {
    const db = await openDatabase({ dataDir });
    const path = snapshotSocketPath(dataDir);
    try {
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(await ask(path, 'drop table site\n')).toBe('ERROR unknown request\n');
      await db.query("insert into agency (name) values ('Snapshot District')");

      const answer = await requestSnapshot(dataDir);
      expect(answer.kind).toBe('snapshot');
      const bytes = answer.kind === 'snapshot' ? answer.bytes : Buffer.alloc(0);
      const copy = await openPglite(undefined, { loadDataDir: new Blob([new Uint8Array(bytes)]) });
      try {
        const { rows } = await copy.query<{ name: string }>(
          "select name from agency where name = 'Snapshot District'",
        );
        expect(rows).toEqual([{ name: 'Snapshot District' }]);
      } finally {
        await copy.close();
      }
    } finally {
      await db.close();
    }
    expect(existsSync(path)).toBe(false);
    expect(await requestSnapshot(dataDir)).toEqual({ kind: 'nobody' });
  }, 120_000);
});
