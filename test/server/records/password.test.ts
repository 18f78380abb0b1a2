import { describe, expect, it } from 'vitest';
import {
  PASSWORD_COST,
  hashPassword,
  verifyPassword,
} from '../../../src/server/records/auth/password';
import { TEST_PASSWORD_COST } from '../../helpers/seed-test-accounts';

const PASSWORD = 'correct horse battery staple';

describe('password hashes', () => {
  it("are stored at the service's cost unless told otherwise, each with its own salt", async () => {
    const [a, b] = await Promise.all([hashPassword(PASSWORD), hashPassword(PASSWORD)]);
    expect(PASSWORD_COST.N).toBe(32768);
    expect(a.split('$').slice(0, 4)).toEqual(['scrypt', '32768', '8', '1']);
    expect(a).not.toBe(b);
    expect(a).not.toContain(PASSWORD);
  });

  it('are checked at the cost stored with each hash, so a raised cost keeps older passwords', async () => {
    const cheap = await hashPassword(PASSWORD, TEST_PASSWORD_COST);
    expect(cheap.split('$')[1]).toBe(String(TEST_PASSWORD_COST.N));
    expect(await verifyPassword(PASSWORD, cheap)).toBe(true);
    expect(await verifyPassword(PASSWORD, await hashPassword(PASSWORD))).toBe(true);
    expect(await verifyPassword(`${PASSWORD} `, cheap)).toBe(false);
    expect(await verifyPassword(PASSWORD.toUpperCase(), cheap)).toBe(false);
  });

  it('never match a malformed or tampered hash', async () => {
    const cheap = await hashPassword(PASSWORD, TEST_PASSWORD_COST);
    const parts = cheap.split('$');
    const tampered = [...parts.slice(0, 5), Buffer.alloc(32, 1).toString('base64')].join('$');
    for (const stored of [
      '',
      'scrypt',
      'bcrypt$10$8$1$c2FsdA==$aGFzaA==',
      ['scrypt', '0', ...parts.slice(2)].join('$'),
      ['scrypt', 'x', ...parts.slice(2)].join('$'),
      [...parts.slice(0, 5), ''].join('$'),
      tampered,
    ]) {
      expect(await verifyPassword(PASSWORD, stored), stored).toBe(false);
    }
  });
});
