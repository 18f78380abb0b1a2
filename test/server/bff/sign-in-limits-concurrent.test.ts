import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBffStack, type BffStack } from './helpers/bff-stack';

/**
 * The per-username limit (10 failures a minute, contract §7) must hold for attempts sent all at
 * once: a check made before the upstream answers, and a failure counted only after, lets every
 * attempt of a burst through (then only the 300-a-minute address limit is left, per address).
 */

let stack: BffStack;
beforeAll(async () => {
  stack = await startBffStack();
});
afterAll(async () => {
  await stack?.close();
});

const logins = () => stack.proxy.seen.filter((r) => r.path === '/login').length;

describe('sign-in attempts sent all at once for one username', () => {
  it('let at most 10 wrong passwords reach the upstream; the rest are 429 rate_limited', async () => {
    const before = logins();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        stack.api('/api/session', {
          method: 'POST',
          body: { username: i % 2 ? 'demo-tech' : 'DEMO-TECH', password: `wrong-${i}` },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s !== 401).every((s) => s === 429)).toBe(true);
    for (const a of answers.filter((x) => x.status === 429)) {
      expect(a.json()).toMatchObject({ error: { code: 'rate_limited' } });
      expect(Number(a.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(logins() - before).toBeLessThanOrEqual(10);
  });

  it('still lets another user sign in at once, and several of their attempts together', async () => {
    const answers = await Promise.all(
      Array.from({ length: 3 }, () => stack.signIn('demo-manager').then(() => 200)),
    );
    expect(answers).toEqual([200, 200, 200]);
  });
});
