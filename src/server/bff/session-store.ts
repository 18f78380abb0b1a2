import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../db/database';
import type { SessionInfo } from '#shared/schemas/auth';
import { processSessionKey } from './session-key';
import { TokenCipher } from './token-cipher';

export const SESSION_COOKIE = '__Host-trapline';

/** A row of bff_session. The upstream token never leaves the server. */
export type StoredSession = {
  idHash: string;
  token: string;
  tokenExpiresAt: Date;
  /** False once the upstream refused to renew the token, or cannot (session-renewal.ts). */
  renewable: boolean;
  info: SessionInfo;
};

/** The cookie holds 256 random bits; only their SHA-256 is stored, so a database leak gives no cookie. */
function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSessionId(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

type SessionRow = {
  id_hash: string;
  upstream_token: string;
  token_expires_at: Date | string;
  user_id: number | null;
  username: string;
  user_name: string | null;
  role: string | null;
  agency_id: number;
  agency_name: string;
  renew_refused: boolean;
};

/** Sessions kept in memory at most (least recently used go first). */
const SESSION_CACHE_SIZE = 10_000;
/**
 * How long a session read from the table is trusted without reading it again. Sign-out and a
 * refused token drop it at once in this process, and on PostgreSQL in every other BFF process
 * too (SESSION_DROP_CHANNEL); this bound only limits how long a change made to the table by
 * something else (an operator's delete) goes unseen.
 */
export const SESSION_CACHE_MS = 10_000;

/**
 * NOTIFY channel on PostgreSQL carrying the id hash of a session just signed out or refused, so
 * every BFF process sharing the database drops it from its cache at once: sign-out in one process
 * must not leave the cookie working through another for SESSION_CACHE_MS.
 */
const SESSION_DROP_CHANNEL = 'trapline_session_drop';

type CachedSession = { session: StoredSession; endsAt: number; readAt: number };

/**
 * The BFF's sessions (table bff_session). The upstream token is stored sealed (TokenCipher,
 * bound to the row), never in clear: a copy of the database gives no token. A row whose token
 * does not open (another key, tampered) reads as no session: signed out, never an error.
 */
/** A week, as the records service's renew window (TRAPLINE_RENEW_WINDOW_S). */
export const DEFAULT_SESSION_IDLE_MS = 7 * 86_400_000;

export class SessionStore {
  /**
   * Sessions read recently, by id hash: a proxied request then costs no query and no unsealing
   * (profiled: the lookup was ~1 ms of the BFF's ~2.4 ms per proxied GET). Filled only by
   * find(), so a session is always read from the table once before it is trusted from memory.
   */
  private readonly recent = new Map<string, CachedSession>();
  /**
   * Counts sign-outs and refused tokens. A read that overlapped one is not kept: it may have
   * read the row just before the change, and must not bring back what was just dropped.
   */
  private drops = 0;
  /**
   * Whether this process hears other processes' sign-outs: always on PGlite (one process), on
   * PostgreSQL once LISTEN is in place. Nothing is served from or kept in memory until then, and
   * from the moment the listening connection is lost until it is back.
   */
  private hearsDrops: boolean;
  private listening: Promise<void> | null = null;

  constructor(
    private readonly db: Database,
    private readonly cipher: TokenCipher = new TokenCipher(processSessionKey()),
    /**
     * How long a row outlives its token: the window in which the token can still be renewed
     * (session-renewal.ts), and after it, or where the upstream cannot renew, an expired sign-in
     * says reauth_required, not unknown.
     */
    private readonly graceMs = DEFAULT_SESSION_IDLE_MS,
  ) {
    this.hearsDrops = !db.listen;
  }

  /**
   * Listens for other processes' sign-outs (PostgreSQL): the first find waits for LISTEN to be in
   * place (one connect, once), and so does the first after the listening connection was lost.
   * If it cannot listen, the read goes on uncached.
   */
  private listenForDrops(): Promise<void> {
    const db = this.db;
    if (this.hearsDrops || !db.listen) return Promise.resolve();
    this.listening ??= db
      .listen(
        SESSION_DROP_CHANNEL,
        (idHash) => this.forget(idHash),
        () => {
          this.hearsDrops = false;
          this.listening = null;
          this.forgetAll();
        },
      )
      .then(
        () => {
          this.hearsDrops = true;
        },
        () => {
          this.listening = null;
        },
      );
    return this.listening;
  }

  /** Another process signed this session out or saw its token refused. */
  private forget(idHash: string): void {
    this.drops++;
    this.recent.delete(idHash);
  }

  private forgetAll(): void {
    this.drops++;
    this.recent.clear();
  }

  /** Stores a new session and returns the raw id for the cookie (the only place it exists). */
  async create(token: string, info: SessionInfo): Promise<string> {
    const id = newSessionId();
    const idHash = hashSessionId(id);
    const expires = new Date(info.expiresAt);
    await this.db.query(
      `insert into bff_session (id_hash, upstream_token, token_expires_at, user_id, username, user_name, role,
         agency_id, agency_name, ends_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        idHash,
        this.cipher.seal(token, idHash),
        expires,
        info.user.id,
        info.user.username,
        info.user.name ?? null,
        info.user.role ?? null,
        info.agency.id,
        info.agency.name,
        new Date(expires.getTime() + this.graceMs),
      ],
    );
    return id;
  }

  async find(id: string, now: Date): Promise<StoredSession | null> {
    return this.findByHash(hashSessionId(id), now);
  }

  /** The session as its row holds it now, never from memory (another process may have renewed it). */
  async reread(idHash: string, now: Date): Promise<StoredSession | null> {
    this.recent.delete(idHash);
    return this.findByHash(idHash, now);
  }

  private async findByHash(idHash: string, now: Date): Promise<StoredSession | null> {
    const at = now.getTime();
    if (!this.hearsDrops) await this.listenForDrops();
    const trusted = this.hearsDrops;
    const cached = this.recent.get(idHash);
    if (
      trusted &&
      cached &&
      at - cached.readAt < SESSION_CACHE_MS &&
      at < cached.endsAt &&
      at >= cached.readAt
    ) {
      // Most recently used last: the first key is the one to evict.
      this.recent.delete(idHash);
      this.recent.set(idHash, cached);
      return cached.session;
    }
    this.recent.delete(idHash);
    const dropsBefore = this.drops;
    const { rows } = await this.db.query<SessionRow & { ends_at: Date | string }>(
      'select * from bff_session where id_hash = $1 and ends_at > $2',
      [idHash, now],
    );
    const row = rows[0];
    if (!row) return null;
    const session = this.sessionOf(row);
    if (!session) return null;
    if (trusted && this.hearsDrops && this.drops === dropsBefore) {
      this.recent.set(idHash, { session, endsAt: new Date(row.ends_at).getTime(), readAt: at });
      if (this.recent.size > SESSION_CACHE_SIZE) {
        this.recent.delete(this.recent.keys().next().value as string);
      }
    }
    return session;
  }

  private sessionOf(row: SessionRow): StoredSession | null {
    const token = this.cipher.open(row.upstream_token, row.id_hash);
    if (token === null) return null;
    const tokenExpiresAt = new Date(row.token_expires_at);
    return {
      idHash: row.id_hash,
      token,
      tokenExpiresAt,
      renewable: !row.renew_refused,
      info: {
        user: {
          id: row.user_id,
          username: row.username,
          name: row.user_name,
          ...(row.role === 'manager' || row.role === 'technician' ? { role: row.role } : {}),
        },
        agency: { id: row.agency_id, name: row.agency_name },
        expiresAt: tokenExpiresAt.toISOString(),
      },
    };
  }

  async delete(id: string): Promise<void> {
    await this.deleteByHash(hashSessionId(id));
  }

  async deleteByHash(idHash: string): Promise<void> {
    await this.dropAround(idHash, () =>
      this.db.query('delete from bff_session where id_hash = $1', [idHash]),
    );
  }

  /**
   * The upstream exchanged the session's token for `token` (POST /login/renew): stored sealed,
   * and the row lives on for the renew window past the new expiry. Not over a token refused
   * meanwhile (expireToken: a deactivation or password reset through the Office while the
   * renewal was at the upstream): that session stays ended.
   */
  async renewed(idHash: string, token: string, expiresAt: Date): Promise<void> {
    await this.dropAround(idHash, () =>
      this.db.query(
        `update bff_session set upstream_token = $2, token_expires_at = $3,
           ends_at = greatest(ends_at, $4) where id_hash = $1 and not renew_refused`,
        [
          idHash,
          this.cipher.seal(token, idHash),
          expiresAt,
          new Date(expiresAt.getTime() + this.graceMs),
        ],
      ),
    );
  }

  /** The upstream has no way to renew tokens (the public service): the token runs its course. */
  async cannotRenew(idHash: string): Promise<void> {
    await this.dropAround(idHash, () =>
      this.db.query('update bff_session set renew_refused = true where id_hash = $1', [idHash]),
    );
  }

  /**
   * The upstream refused the token of `refused` (revoked, user deactivated, clock skew) or will
   * not renew it: stop using it, and do not ask to renew it again. The session then says
   * reauth_required. Only while the row still holds that token (the same expiry): a request
   * that ran across a renewal (a long import or export, still sending the exchanged token past
   * its minute) must not end the session the renewal just extended.
   */
  async expireToken(
    refused: Pick<StoredSession, 'idHash' | 'tokenExpiresAt'>,
    now: Date,
  ): Promise<void> {
    await this.dropAround(refused.idHash, () =>
      this.db.query(
        `update bff_session set token_expires_at = least(token_expires_at, $2), renew_refused = true
          where id_hash = $1 and token_expires_at = $3`,
        [refused.idHash, now, refused.tokenExpiresAt],
      ),
    );
  }

  /** Stops using the session's token, whichever it holds (see expireTokensOfUser). */
  private async expireAnyToken(idHash: string, now: Date): Promise<void> {
    await this.dropAround(idHash, () =>
      this.db.query(
        `update bff_session set token_expires_at = least(token_expires_at, $2), renew_refused = true
          where id_hash = $1`,
        [idHash, now],
      ),
    );
  }

  /**
   * A manager deactivated this person or reset their password upstream: every session of theirs
   * stops using its token now (reauth_required), in every BFF process, whatever it asks next.
   */
  async expireTokensOfUser(agencyId: number, userId: number, now: Date): Promise<void> {
    const { rows } = await this.db.query<{ id_hash: string }>(
      'select id_hash from bff_session where agency_id = $1 and user_id = $2 and token_expires_at > $3',
      [agencyId, userId, now],
    );
    for (const { id_hash } of rows) await this.expireAnyToken(id_hash, now);
  }

  /** Forgets a session around a change to its row: no read overlapping the change is kept. */
  private async dropAround(idHash: string, change: () => Promise<unknown>): Promise<void> {
    this.drops++;
    this.recent.delete(idHash);
    try {
      await change();
      // After the change committed: a process that hears this and then reads finds it done.
      if (this.db.listen) {
        await this.db.query('select pg_notify($1, $2)', [SESSION_DROP_CHANNEL, idHash]);
      }
    } finally {
      this.drops++;
      this.recent.delete(idHash);
    }
  }

  async sweep(now: Date): Promise<void> {
    for (const [idHash, cached] of this.recent) {
      if (cached.endsAt <= now.getTime()) this.recent.delete(idHash);
    }
    await this.db.query('delete from bff_session where ends_at <= $1', [now]);
  }
}
