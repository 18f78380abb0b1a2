import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  hashSessionId,
  SESSION_CACHE_MS,
  SessionStore,
} from '../../../src/server/bff/session-store';
import { TokenCipher } from '../../../src/server/bff/token-cipher';
import type { Database, Row } from '../../../src/server/db/database';
import { openTestDatabase } from '../helpers/test-database';

/**
 * The session store keeps sessions it read in memory for a few seconds, so a proxied request
 * costs no session query. What must still hold: sign-out and a refused token take effect at
 * once in this process, a change made by another process is seen within SESSION_CACHE_MS, and a
 * read that overlapped a sign-out never brings the session back.
 */

let db: Database;
/** Session-table reads the store made, counted at the database boundary. */
let sessionReads = 0;
let counting: Database;
/** When set, a session read's answer is held until it resolves (a slow reply from the database). */
let holdReads: Promise<void> | null = null;

beforeAll(async () => {
  db = await openTestDatabase();
  counting = {
    ...db,
    kind: db.kind,
    query: <T extends Row = Row>(sql: string, params?: readonly unknown[]) => {
      if (!/from bff_session/.test(sql)) return db.query<T>(sql, params);
      sessionReads++;
      const hold = holdReads;
      return db.query<T>(sql, params).then(async (answer) => {
        await hold;
        return answer;
      });
    },
    exec: db.exec.bind(db),
    transaction: db.transaction.bind(db),
    close: db.close.bind(db),
  };
});
afterAll(async () => {
  await db?.close();
});

const T0 = new Date('2026-07-01T12:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

function info(user: string) {
  return {
    user: { id: 2, username: user, name: 'Demo Tech', role: 'technician' as const },
    agency: { id: 1, name: 'Demo Vector Control District' },
    expiresAt: at(3_600_000).toISOString(),
  };
}

function store() {
  return new SessionStore(counting, new TokenCipher(randomBytes(32)));
}

describe('the session store in front of the session table', () => {
  it('reads a session from the table once, then from memory until SESSION_CACHE_MS', async () => {
    const sessions = store();
    const id = await sessions.create('token-a', info('tech-a'));
    sessionReads = 0;
    const first = await sessions.find(id, at(0));
    const again = await sessions.find(id, at(1_000));
    expect(first?.token).toBe('token-a');
    expect(again?.token).toBe('token-a');
    expect(sessionReads).toBe(1);
    await sessions.find(id, at(SESSION_CACHE_MS + 1));
    expect(sessionReads).toBe(2);
  });

  it('signs out at once, though the session was just read', async () => {
    const sessions = store();
    const id = await sessions.create('token-b', info('tech-b'));
    expect(await sessions.find(id, at(0))).not.toBeNull();
    await sessions.delete(id);
    expect(await sessions.find(id, at(1))).toBeNull();
  });

  it('stops using a refused token at once', async () => {
    const sessions = store();
    const id = await sessions.create('token-c', info('tech-c'));
    const found = await sessions.find(id, at(0));
    expect(found?.tokenExpiresAt.getTime()).toBe(at(3_600_000).getTime());
    await sessions.expireToken(found!, at(5));
    expect((await sessions.find(id, at(6)))?.tokenExpiresAt.getTime()).toBe(at(5).getTime());
  });

  it('sees a sign-out made by another process within SESSION_CACHE_MS', async () => {
    const here = store();
    const id = await here.create('token-d', info('tech-d'));
    expect(await here.find(id, at(0))).not.toBeNull();
    // Another BFF process on the same database signs the session out.
    await db.query('delete from bff_session where id_hash = $1', [hashSessionId(id)]);
    expect(await here.find(id, at(SESSION_CACHE_MS + 1))).toBeNull();
  });

  it('does not keep a read that overlapped a sign-out', async () => {
    const sessions = store();
    // On PostgreSQL the first read waits for the store to LISTEN for other processes' sign-outs;
    // one read first, so the held read below is sent before the sign-out, as the test means.
    await sessions.find('warm-up', at(0));
    const id = await sessions.create('token-e', info('tech-e'));
    // The read is sent first and sees the row, but its answer arrives only after the sign-out
    // has finished (as on PostgreSQL, where they run on two connections).
    let release = () => {};
    holdReads = new Promise((resolve) => (release = resolve));
    const reading = sessions.find(id, at(0));
    holdReads = null;
    await sessions.delete(id);
    release();
    expect((await reading)?.token).toBe('token-e');
    expect(await sessions.find(id, at(1))).toBeNull();
  });

  it('forgets a session once its row would have ended', async () => {
    const sessions = new SessionStore(counting, new TokenCipher(randomBytes(32)), 1_000);
    const inf = { ...info('tech-f'), expiresAt: at(500).toISOString() };
    const id = await sessions.create('token-f', inf);
    expect(await sessions.find(id, at(0))).not.toBeNull();
    // ends_at = token expiry (500 ms) + grace (1 s): gone at 1.5 s, inside SESSION_CACHE_MS.
    expect(await sessions.find(id, at(1_600))).toBeNull();
  });
});

describe('a renewal that finishes after the token was refused', () => {
  it('does not bring the session back (a deactivation through the Office meanwhile)', async () => {
    const sessions = store();
    const id = await sessions.create('token-old', info('tech-renewing'));
    const idHash = hashSessionId(id);
    const before = await sessions.find(id, at(0));
    // The manager deactivates the person while their renewal is at the upstream: every
    // session of theirs stops using its token (expireTokensOfUser)...
    await sessions.expireToken(before!, at(1_000));
    // ...and the renewal's answer, granted just before, arrives after.
    await sessions.renewed(idHash, 'token-new', at(3_600_000));
    const found = await sessions.find(id, at(2_000));
    expect(found?.token).toBe('token-old');
    expect(found?.tokenExpiresAt.getTime()).toBeLessThanOrEqual(at(1_000).getTime());
    expect(found?.renewable).toBe(false);
  });
});

describe('a request that ran across a renewal', () => {
  it('does not end the renewed session when the upstream refuses the exchanged token', async () => {
    const sessions = store();
    const id = await sessions.create('token-exchanged', info('tech-long-import'));
    // A long site import starts with the session as it is...
    const atStart = await sessions.find(id, at(0));
    // ...another request renews its token meanwhile...
    await sessions.renewed(hashSessionId(id), 'token-fresh', at(2 * 3_600_000));
    // ...and the import's last writes, sent with the exchanged token past its minute, are
    // refused (401): the session goes on with the fresh token.
    await sessions.expireToken(atStart!, at(120_000));
    const after = await sessions.find(id, at(121_000));
    expect(after?.token).toBe('token-fresh');
    expect(after?.tokenExpiresAt.getTime()).toBe(at(2 * 3_600_000).getTime());
    expect(after?.renewable).toBe(true);
  });
});
