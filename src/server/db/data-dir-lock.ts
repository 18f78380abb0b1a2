import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The file naming the process that has the embedded database of a directory open. */
export const LOCK_FILE = 'pgdata.lock';

/** True when a process with this id runs (EPERM: it runs, as another user). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** This boot of the machine (Linux), so a lock written before a reboot is known stale. */
function bootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return '';
  }
}

/**
 * When a process started (Linux: clock ticks since boot, field 22 of /proc/<pid>/stat), so a
 * process id now worn by another process (a container restarted: its ids start over) is told
 * from the one that wrote the lock. '' where unknown.
 */
export function processStartTime(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}

/** What a lock file says: the owner's process id, the boot and when the owner started. */
function readLock(file: string): { pid: number; boot: string; started: string } | null {
  try {
    const [pidLine, boot = '', started = ''] = readFileSync(file, 'utf8').split('\n');
    const pid = Number.parseInt(pidLine, 10);
    return Number.isInteger(pid) && pid > 0 ? { pid, boot, started } : null;
  } catch {
    return null;
  }
}

/** The process id of a lock's owner while it still runs, or null when the lock is stale. */
function liveHolder(file: string, boot: string): number | null {
  const lock = readLock(file);
  if (!lock || lock.pid === process.pid || !isRunning(lock.pid)) return null;
  // Written before the machine restarted, or the id is now another process's.
  if (boot && lock.boot && lock.boot !== boot) return null;
  const started = processStartTime(lock.pid);
  if (started && lock.started && started !== lock.started) return null;
  return lock.pid;
}

/**
 * Claims `dir`'s embedded database for this process, or throws saying which process has it.
 *
 * PGlite is PostgreSQL in one process with no lock of its own: a second process opening the same
 * files runs a second PostgreSQL on them, sees nothing the first writes, and what it writes is
 * lost or overwrites the first's (a second `npm start`, or `npm run records -- agency-token` while
 * Trapline runs). The lock file holds the owner's process id, and on Linux the boot and the
 * owner's start time. A lock is stale, and taken over, when its process no longer runs (SIGKILL),
 * ran before the machine restarted, is this very process, or its id now names another process
 * (a container restarted: ids start over), as PostgreSQL treats its postmaster.pid. Returns the
 * release, which removes the file only while it still names this process.
 */
export function lockDataDir(dir: string): () => void {
  const file = join(dir, LOCK_FILE);
  const boot = bootId();
  const mine = `${process.pid}\n${boot}\n${processStartTime(process.pid)}\n`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, mine, { flag: 'wx', mode: 0o600 });
      return () => {
        try {
          if (readFileSync(file, 'utf8') === mine) rmSync(file, { force: true });
        } catch {
          // gone already
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = liveHolder(file, boot);
    if (holder !== null) {
      throw new Error(
        `${dir} is in use by another running Trapline (process ${holder}): its embedded database ` +
          'belongs to one process at a time. Stop that one first, or give this one another ' +
          'TRAPLINE_DATA_DIR (several processes on one database need DATABASE_URL, PostgreSQL). ' +
          `If no Trapline is running, delete ${file}.`,
      );
    }
    rmSync(file, { force: true });
  }
  throw new Error(
    `Could not claim ${dir}: ${file} keeps reappearing; is another Trapline starting?`,
  );
}
