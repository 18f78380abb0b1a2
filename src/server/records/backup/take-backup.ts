import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { lockDataDir } from '../../db/data-dir-lock';
import { openPglite } from '../../db/pglite-database';
import { requestSnapshot, snapshotSocketFits } from '../../db/snapshot-socket';
import { encodeBackup, PART_DIRS, type BackupPart, type PartName } from './backup-file';

/** A backup that cannot be taken, with what to do; nothing was written. */
export class BackupRefusedError extends Error {}

/**
 * Writes a backup of TRAPLINE_DATA_DIR's embedded databases to `file`, whether Trapline runs or
 * not. Parts, in this order:
 *
 * 1. `bff` (`<data dir>/bff`): the BFF's sessions and idempotency journal, when it exists.
 * 2. `records` (`<data dir>`): the records service's database (records, people, tokens, history).
 *
 * The order is the consistency argument between the two databases, which cannot be snapshotted
 * at one instant: the BFF journals a create's answer only after the records service committed
 * it, so every answer in the earlier BFF snapshot names a record the later records snapshot
 * holds. The reverse order could restore a journal replaying "created, id 812" for a record the
 * restored records service never had. Each part is itself one consistent moment (Database
 * .dumpDataDir).
 *
 * `file` is written beside itself under another name, synced, then renamed: a backup file that
 * exists is whole. An existing file is never overwritten.
 */
export async function takeBackup(dataDir: string, file: string): Promise<{ parts: PartName[] }> {
  const target = resolve(file);
  if (existsSync(target)) {
    throw new BackupRefusedError(
      `${target} already exists: a backup never overwrites a file; choose another name`,
    );
  }
  if (!existsSync(join(dataDir, 'pgdata'))) {
    throw new BackupRefusedError(
      `No Trapline database in ${resolve(dataDir)}: set TRAPLINE_DATA_DIR to what Trapline uses`,
    );
  }
  const parts: BackupPart[] = [];
  for (const name of ['bff', 'records'] as const) {
    const dir = join(dataDir, PART_DIRS[name]);
    if (name === 'bff' && !existsSync(join(dir, 'pgdata'))) continue; // records service alone
    parts.push({ name, bytes: await snapshot(dir) });
  }
  writeWhole(target, encodeBackup(parts, new Date()));
  return { parts: parts.map((p) => p.name) };
}

/** One database's snapshot: from the process holding it, else opened here under its lock. */
async function snapshot(dir: string): Promise<Buffer> {
  if (snapshotSocketFits(dir)) {
    const answer = await requestSnapshot(dir);
    if (answer.kind === 'snapshot') return answer.bytes;
  }
  let release: () => void;
  try {
    release = lockDataDir(dir);
  } catch (err) {
    const holder = err instanceof Error ? /\(process (\d+)\)/.exec(err.message)?.[1] : undefined;
    if (!holder) throw err;
    throw new BackupRefusedError(
      `The Trapline running on ${resolve(dir)} (process ${holder}) does not answer backups ` +
        (snapshotSocketFits(dir)
          ? '(a version before backups?)'
          : '(its data directory path is too long for a local socket)') +
        ': stop it, run the backup, start it again. Nothing was written.',
    );
  }
  try {
    const db = await openPglite(join(dir, 'pgdata'), { sharedBuffers: '16MB' });
    try {
      return Buffer.from(await (await db.dumpDataDir!()).arrayBuffer());
    } finally {
      await db.close();
    }
  } finally {
    release();
  }
}

function writeWhole(target: string, bytes: Buffer): void {
  const partial = `${target}.partial-${process.pid}`;
  const fd = openSync(partial, 'wx', 0o600); // it holds password hashes and sealed tokens
  try {
    try {
      writeFileSync(fd, bytes); // to the end, however many writes that takes
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(partial, target);
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  }
}
