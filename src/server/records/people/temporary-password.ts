import { randomInt } from 'node:crypto';

/** A temporary password stops working this long after it was handed out (contract §10). */
export const TEMPORARY_PASSWORD_LIFETIME_MS = 7 * 24 * 3600_000;

/** No 0/O, 1/l/I: the password is read off a screen and typed on a tablet. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/**
 * Four groups of four (`k7pm-x3ad-9qre-w2hn`): 16 characters from 31 (~79 bits), long enough to
 * pass the password rule and easy to read aloud and type.
 */
export function generateTemporaryPassword(): string {
  const groups: string[] = [];
  for (let g = 0; g < 4; g++) {
    let group = '';
    for (let i = 0; i < 4; i++) group += ALPHABET[randomInt(ALPHABET.length)];
    groups.push(group);
  }
  return groups.join('-');
}

export function temporaryPasswordExpiry(now: Date): Date {
  return new Date(now.getTime() + TEMPORARY_PASSWORD_LIFETIME_MS);
}
