import { chmodSync, mkdirSync, statSync } from 'node:fs';

/**
 * Makes TRAPLINE_DATA_DIR private to the user running Trapline (0700), creating it if needed.
 * It holds the embedded databases (password hashes, sessions, the journal), the session key and
 * the demo credentials, and the embedded database writes its files 0666: only the directory's
 * own mode keeps other users of the machine from reading or changing them. A directory this
 * user does not own is left as it is, with a warning.
 */
export function makeDataDirPrivate(dir: string, warn: (line: string) => void = console.warn) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const mode = statSync(dir).mode & 0o777;
  if ((mode & 0o077) === 0) return;
  try {
    chmodSync(dir, 0o700);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'EACCES') throw err;
    warn(
      `${dir} is open to other users (mode ${mode.toString(8)}) and cannot be changed: ` +
        'make it 0700, it holds the database and the session key',
    );
  }
}
