import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The AES-256 key that seals upstream tokens in the session table: 32 bytes. */
export const SESSION_KEY_BYTES = 32;

/**
 * Reads a key written as 64 hex digits or as base64 / base64url of 32 bytes (44 or 43
 * characters, e.g. `openssl rand -base64 32`). Returns null for anything else.
 */
export function parseSessionKey(text: string): Buffer | null {
  const t = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(t)) {
    const key = Buffer.from(t, t.includes('-') || t.includes('_') ? 'base64url' : 'base64');
    if (key.length === SESSION_KEY_BYTES) return key;
  }
  return null;
}

/**
 * The key from TRAPLINE_SESSION_KEY when set (already parsed), else the one in
 * `<dataDir>/session-key`, generated there on the first start (mode 0600; the data dir is
 * git-ignored). Several BFF processes on one data dir share that file; processes on different
 * machines sharing one PostgreSQL must be given the same TRAPLINE_SESSION_KEY, or each reads the
 * others' sessions as signed out.
 */
export function loadSessionKey(fromEnv: Buffer | undefined, dataDir: string): Buffer {
  if (fromEnv) return fromEnv;
  const file = join(dataDir, 'session-key');
  const existing = readKeyFile(file);
  if (existing) return existing;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // Written whole under a private name, then linked into place: link fails if another process
  // got there first, so two first starts agree on one key and nobody reads a half-written file.
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(tmp, `${randomBytes(SESSION_KEY_BYTES).toString('base64')}\n`, { mode: 0o600 });
  try {
    linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    unlinkSync(tmp);
  }
  const key = readKeyFile(file);
  if (!key) throw new Error(`${file} vanished as it was written`);
  return key;
}

function readKeyFile(file: string): Buffer | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const key = parseSessionKey(text);
  if (!key) throw new Error(`${file} does not hold a 32-byte key; remove it or fix it`);
  return key;
}

let processKey: Buffer | undefined;

/**
 * A key that lives as long as this process, for a BFF built without one (tests, embedding):
 * every BFF of the process shares it, so siblings share sessions; a restart ends them.
 * `npm start` always passes a lasting key (loadSessionKey).
 */
export function processSessionKey(): Buffer {
  processKey ??= randomBytes(SESSION_KEY_BYTES);
  return processKey;
}
