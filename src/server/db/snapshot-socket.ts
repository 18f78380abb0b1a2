import { chmodSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Socket } from 'node:net';
import { join, resolve } from 'node:path';
import type { Database } from './database';

/**
 * A local socket through which the process that holds a directory's embedded database hands out
 * consistent snapshots of it (`npm run records -- backup` while Trapline runs).
 *
 * Why a socket: a PGlite belongs to the one process that opened it (data-dir-lock.ts); a second
 * process reading its files while it writes copies pages from different moments. Only the owner
 * can dump it between transactions, so the owner answers.
 *
 * Who may ask: the socket sits in the data directory, which is private to the user running
 * Trapline (0700, makeDataDirPrivate), and is itself 0600: only that user can connect, as only
 * that user can read the database files. It answers one request, a snapshot; it takes no input
 * that changes anything.
 *
 * Protocol: the client sends `snapshot\n`; the server answers `SNAPSHOT <bytes>\n` and that many
 * bytes (PGlite's gzipped tarball of the data directory), or `ERROR <message>\n`, then closes.
 */
export const SNAPSHOT_SOCKET = 'snapshot.sock';

const REQUEST = 'snapshot\n';

/**
 * The longest socket path every platform binds (sun_path: 108 bytes on Linux, 104 on macOS,
 * with its terminating NUL).
 */
const MAX_SOCKET_PATH = 103;

export function snapshotSocketPath(dir: string): string {
  return join(resolve(dir), SNAPSHOT_SOCKET);
}

/** True when a socket for `dir` can exist at all (its path fits a socket address). */
export function snapshotSocketFits(dir: string): boolean {
  return Buffer.byteLength(snapshotSocketPath(dir)) <= MAX_SOCKET_PATH;
}

/**
 * Serves snapshots of `db` (an embedded database this process has locked in `dir`). Resolves to
 * the stop, which removes the socket. A directory whose path is too long for a socket, or a
 * socket that cannot be made, gets none, with a warning: Trapline runs on, and the backup command
 * says it cannot reach it.
 */
export async function serveSnapshots(
  dir: string,
  db: Database,
  warn: (line: string) => void = console.warn,
): Promise<() => Promise<void>> {
  const path = snapshotSocketPath(dir);
  const none = () => Promise.resolve();
  if (!db.dumpDataDir) return none;
  if (!snapshotSocketFits(dir)) {
    warn(
      `${path} is too long for a local socket: backups of this database need Trapline stopped ` +
        '(or a shorter TRAPLINE_DATA_DIR)',
    );
    return none;
  }
  const dump = db.dumpDataDir.bind(db);
  // This process holds the directory's lock: a socket file here is a dead owner's.
  rmSync(path, { force: true });
  const open = new Set<Socket>();
  const server = createServer((socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    socket.on('error', () => socket.destroy());
    let asked = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      asked += chunk;
      if (!asked.includes('\n')) {
        if (asked.length > REQUEST.length) socket.end('ERROR unknown request\n');
        return;
      }
      socket.removeAllListeners('data');
      if (asked !== REQUEST) {
        socket.end('ERROR unknown request\n');
        return;
      }
      dump().then(
        async (blob) => {
          const bytes = Buffer.from(await blob.arrayBuffer());
          socket.write(`SNAPSHOT ${bytes.length}\n`);
          socket.end(bytes);
        },
        (err: unknown) => socket.end(`ERROR ${oneLine(err)}\n`),
      );
    });
  });
  try {
    await new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(path, () => {
        server.off('error', fail);
        done();
      });
    });
    chmodSync(path, 0o600);
  } catch (err) {
    server.close();
    warn(`No backup socket for ${dir} (${oneLine(err)}): backups need Trapline stopped`);
    return none;
  }
  return () =>
    new Promise<void>((done) => {
      // A snapshot being sent is cut: the client sees a short answer and writes no backup.
      for (const s of open) s.destroy();
      server.close(() => done());
    });
}

export type SnapshotAnswer =
  | { kind: 'snapshot'; bytes: Buffer }
  /** Nobody listens there: no socket file, or a dead owner's. */
  | { kind: 'nobody' };

/** Asks the process holding `dir`'s database for a snapshot. Throws when it answers an error. */
export function requestSnapshot(dir: string): Promise<SnapshotAnswer> {
  return new Promise((done, fail) => {
    const socket = createConnection(snapshotSocketPath(dir));
    const chunks: Buffer[] = [];
    let connected = false;
    socket.once('connect', () => {
      connected = true;
      socket.write(REQUEST);
    });
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.once('error', (err: NodeJS.ErrnoException) => {
      if (!connected && (err.code === 'ENOENT' || err.code === 'ECONNREFUSED')) {
        done({ kind: 'nobody' });
      } else fail(new Error(`The running Trapline's backup socket failed: ${err.message}`));
    });
    socket.once('end', () => {
      const all = Buffer.concat(chunks);
      const eol = all.indexOf(0x0a);
      const head = eol < 0 ? all.toString('latin1') : all.subarray(0, eol).toString('latin1');
      const size = /^SNAPSHOT (\d+)$/.exec(head);
      if (size && all.length - eol - 1 === Number(size[1])) {
        done({ kind: 'snapshot', bytes: all.subarray(eol + 1) });
      } else if (head.startsWith('ERROR ')) {
        fail(new Error(`The running Trapline could not take a snapshot: ${head.slice(6)}`));
      } else {
        fail(new Error('The running Trapline stopped while sending its snapshot; nothing written'));
      }
    });
  });
}

function oneLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ');
}
