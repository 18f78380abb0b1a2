import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt's cost parameter N (a power of two): memory and time per hash grow with it. */
export type PasswordCost = { N: number };

// scrypt parameters: N=2^15, r=8, p=1 costs ~32 MiB and tens of milliseconds per check, so a
// stolen table resists guessing while a sign-in stays quick. They are stored with each hash so
// they can be raised later without invalidating existing passwords, and a check uses the cost
// stored with the hash it checks.
export const PASSWORD_COST: PasswordCost = { N: 1 << 15 };
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const MAX_MEM = 64 * 1024 * 1024;

function scryptAsync(
  password: string,
  salt: Buffer,
  keylen: number,
  options: ScryptOptions,
): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/**
 * `scrypt$N$r$p$<salt b64>$<hash b64>`: a fresh random salt per password. Every account the
 * service creates gets PASSWORD_COST; only test fixtures pass a lower one.
 */
export async function hashPassword(
  password: string,
  { N }: PasswordCost = PASSWORD_COST,
): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, KEY_LENGTH, { N, r: R, p: P, maxmem: MAX_MEM });
  return ['scrypt', N, R, P, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Constant-time comparison of a password with a stored hash; false for any malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4], 'base64');
  const expected = Buffer.from(parts[5], 'base64');
  if (![n, r, p].every((v) => Number.isInteger(v) && v > 0) || expected.length === 0) return false;
  const actual = await scryptAsync(password, salt, expected.length, {
    N: n,
    r,
    p,
    maxmem: MAX_MEM,
  });
  return timingSafeEqual(actual, expected);
}

/**
 * A hash no password matches, verified for unknown usernames so that a wrong username costs the
 * same time as a wrong password (no username probing by timing).
 */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return dummyHash;
}
