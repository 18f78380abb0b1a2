import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { openPglite } from '../../db/pglite-database';
import { decodeBackup, NotABackupError, PART_DIRS, type PartName } from './backup-file';
import { BackupRefusedError } from './take-backup';

/**
 * Restores a backup (take-backup.ts) into `dataDir`, which must be new or empty. Nothing
 * half-written: the whole file is checked first (format, sizes, checksums), each database is
 * unpacked and opened in a sibling directory, and that directory becomes `dataDir` by one rename
 * only when every part opened as a Trapline database. On any failure the sibling is removed and
 * `dataDir` is as it was.
 *
 * Not restored: the session key and the demo credentials file (secrets the backup does not
 * carry). The next start makes a new key, so everyone signs in once again; tablets keep their
 * queues through that.
 */
export async function restoreBackup(file: string, dataDir: string): Promise<{ parts: PartName[] }> {
  const source = resolve(file);
  let bytes: Buffer;
  try {
    bytes = readFileSync(source);
  } catch (err) {
    throw new BackupRefusedError(`Cannot read ${source}: ${(err as Error).message}`);
  }
  let decoded: ReturnType<typeof decodeBackup>;
  try {
    decoded = decodeBackup(bytes);
  } catch (err) {
    if (!(err instanceof NotABackupError)) throw err;
    throw new BackupRefusedError(`${source} cannot be restored: ${err.message}. Nothing written.`);
  }
  const target = resolve(dataDir);
  if (existsSync(target) && readdirSync(target).length > 0) {
    throw new BackupRefusedError(
      `${target} is not empty: restore only into a new or empty directory (move the current ` +
        'one aside first; a restore never mixes with or replaces data). Nothing written.',
    );
  }
  mkdirSync(dirname(target), { recursive: true });
  const staging = `${target}.restoring-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { mode: 0o700 }); // it will be the data directory: private (data-dir.ts)
  try {
    for (const part of decoded.parts) {
      const pgdata = join(staging, PART_DIRS[part.name], 'pgdata');
      mkdirSync(dirname(pgdata), { recursive: true, mode: 0o700 });
      const db = await openPglite(pgdata, {
        loadDataDir: new Blob([new Uint8Array(part.bytes)]),
        sharedBuffers: '16MB',
      });
      try {
        // A tarball of some other PostgreSQL would unpack and open: it must be Trapline's.
        await db.query('select max(version) from schema_migration');
      } catch {
        throw new BackupRefusedError(
          `${source} cannot be restored: its ${part.name} database is not a Trapline database. ` +
            'Nothing written.',
        );
      } finally {
        await db.close();
      }
    }
    if (existsSync(target)) rmdirSync(target); // empty, checked above; fails if no longer
    renameSync(staging, target);
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
  return { parts: decoded.parts.map((p) => p.name) };
}
