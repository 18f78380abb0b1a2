import { createHash, randomUUID } from 'node:crypto';
import type { Database } from '../db/database';
import { IDEMPOTENCY_WINDOW_MS } from '#shared/schemas/outbox';

/**
 * Rows for creates sent without a key are named with this prefix and a fresh UUID: no client key
 * can take it (a key is matched whole, and a client would have to send this exact UUID).
 */
const KEYLESS_PREFIX = 'keyless:';

/** Default of `IdempotencyJournal.entriesPerUser`. */
export const DEFAULT_ENTRIES_PER_USER = 20_000;

/** A journal row as a request sees it. */
export type JournalEntry = {
  agencyId: number;
  key: string;
  method: string;
  path: string;
  bodyHash: string;
  /** The canonical body while the outcome is open; null once answered (the hash matches retries). */
  body: string | null;
  state: 'forwarded' | 'answered';
  attempt: string;
  leaseUntil: Date;
  /** When the key was claimed: its first forward. */
  createdAt: Date;
  /** Its latest forward (a reconciliation that found nothing sends again, `resend`). */
  forwardedAt: Date;
  status: number | null;
  contentType: string | null;
  response: string | null;
};

/** What `claim` found. `attempt` identifies this request's ownership of the row. */
export type Claim =
  | { kind: 'forward'; attempt: string }
  | { kind: 'reconcile'; attempt: string; entry: JournalEntry }
  | { kind: 'replay'; entry: JournalEntry }
  | { kind: 'in_flight' }
  | { kind: 'key_reused' };

export type ClaimRequest = {
  agencyId: number;
  /** Who sends it (the signed-in username, lower case): one user's keys are counted together. */
  userKey?: string;
  key: string;
  method: string;
  path: string;
  body: string;
};

/** The id of the record a 2xx create answer names, if it names one. */
function createdRecordId(res: { status: number; body: string }): number | null {
  if (res.status < 200 || res.status >= 300) return null;
  try {
    const id = (JSON.parse(res.body) as { id?: unknown } | null)?.id;
    return typeof id === 'number' && Number.isSafeInteger(id) ? id : null;
  } catch {
    return null;
  }
}

/** How a write of an answer ended: 'not_owner' when this attempt no longer owns the row. */
export type WriteOutcome = 'answered' | 'not_owner' | 'record_taken';

/** See `IdempotencyJournal.otherKeys`. */
export type OtherKeys = { given: Set<number>; unsettledBodies: string[] };

/** The unique index that gives each created record to at most one key (migration 7). */
const ONE_KEY_PER_RECORD = 'bff_idempotency_one_key_per_record';

/** A unique violation (SQLSTATE 23505) on ONE_KEY_PER_RECORD, from pg or PGlite. */
function isRecordTaken(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; constraint?: unknown; message?: unknown };
  if (e.code !== '23505') return false;
  return (
    e.constraint === ONE_KEY_PER_RECORD ||
    (typeof e.message === 'string' && e.message.includes(ONE_KEY_PER_RECORD))
  );
}

/**
 * The BFF's idempotency journal (ARCHITECTURE: BFF). Protocol for a POST with a key:
 * 1. `claim` records the key, body hash and a lease BEFORE anything is forwarded.
 * 2. The owner forwards, then `answer`s (status and body, replayed to every retry), or, when the
 *    outcome is unknown (reset, timeout, 5xx), `abandon`s: the row stays 'forwarded' with its lease
 *    ended; or, when the upstream surely did not act (refused connect, 401, 429), `release`s it.
 * 3. A 'forwarded' row whose lease ended (its owner died or abandoned it) is taken over by the next
 *    retry, which must reconcile with the upstream before forwarding again; before it sends again,
 *    `resend` records the new send time and lease (forwarded_at is always the latest send).
 * Every write after the claim is conditioned on `attempt`, so a late owner cannot overwrite a
 * row someone else took over.
 */
export class IdempotencyJournal {
  constructor(
    private readonly db: Database,
    /** How long the forwarding process owns a key: its connect and response time, and a margin. */
    readonly leaseMs: number,
    private readonly now: () => Date,
    /**
     * Keys one user may hold within the retention window (24 h): a week of field work synced at
     * once is a few thousand creates; beyond the cap a new key is refused (429), so no one user
     * can fill the disk with keys.
     */
    readonly entriesPerUser: number = DEFAULT_ENTRIES_PER_USER,
  ) {}

  static hash(method: string, path: string, body: string): string {
    return createHash('sha256').update(`${method} ${path}\n${body}`).digest('hex');
  }

  async claim(req: ClaimRequest): Promise<Claim> {
    const now = this.now();
    const bodyHash = IdempotencyJournal.hash(req.method, req.path, req.body);
    const attempt = randomUUID();
    const lease = new Date(now.getTime() + this.leaseMs);
    // One statement: a new key is inserted; a key older than the retention is replaced as if absent.
    const inserted = await this.db.query(
      `insert into bff_idempotency (agency_id, idem_key, method, path, body_hash, body, state, attempt, lease_until,
         created_at, forwarded_at, user_key)
       values ($1, $2, $3, $4, $5, $6, 'forwarded', $7, $8, $9, $9, $11)
       on conflict (agency_id, idem_key) do update set
         method = excluded.method, path = excluded.path, body_hash = excluded.body_hash, body = excluded.body,
         user_key = excluded.user_key,
         state = 'forwarded', attempt = excluded.attempt, lease_until = excluded.lease_until,
         status = null, content_type = null, response = null, record_id = null,
         created_at = excluded.created_at, forwarded_at = excluded.forwarded_at, answered_at = null
       where bff_idempotency.created_at < $10
       returning idem_key`,
      [
        req.agencyId,
        req.key,
        req.method,
        req.path,
        bodyHash,
        req.body,
        attempt,
        lease,
        now,
        new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS),
        req.userKey ?? null,
      ],
    );
    if (inserted.rows.length === 1) return { kind: 'forward', attempt };

    const entry = await this.find(req.agencyId, req.key);
    if (!entry) return this.claim(req); // swept between the insert and the read
    if (entry.bodyHash !== bodyHash) return { kind: 'key_reused' };
    if (entry.state === 'answered') return { kind: 'replay', entry };
    if (entry.leaseUntil.getTime() > now.getTime()) return { kind: 'in_flight' };
    // Forwarded, never answered, lease over: take it over atomically (one taker wins).
    const taken = await this.db.query(
      `update bff_idempotency set attempt = $3, lease_until = $4
       where agency_id = $1 and idem_key = $2 and state = 'forwarded' and attempt = $5
       returning idem_key`,
      [req.agencyId, req.key, attempt, lease, entry.attempt],
    );
    if (taken.rows.length === 0) return { kind: 'in_flight' };
    return { kind: 'reconcile', attempt, entry };
  }

  /**
   * Records the answer of a forward to replay. Returns false when this attempt no longer owns the
   * row. The upstream answered this very request, so its answer is recorded even when the record
   * it names is already another key's (only a reconciliation that went wrong could have given it
   * away): then without the record id, which the unique index keeps to one key.
   */
  async answer(
    agencyId: number,
    key: string,
    attempt: string,
    res: { status: number; contentType: string | undefined; body: string },
  ): Promise<boolean> {
    const recordId = createdRecordId(res);
    let outcome = await this.write(agencyId, key, attempt, res, recordId);
    if (outcome === 'record_taken') outcome = await this.write(agencyId, key, attempt, res, null);
    return outcome === 'answered';
  }

  /**
   * Records an answer that reconciliation proved from the upstream's lists. 'record_taken': the
   * record was given to another key meanwhile (a reconciliation running beside this one), so it
   * is not provably this request's; nothing is written and the row stays this attempt's.
   */
  async answerReconciled(
    agencyId: number,
    key: string,
    attempt: string,
    res: { status: number; contentType: string | undefined; body: string },
  ): Promise<WriteOutcome> {
    return this.write(agencyId, key, attempt, res, createdRecordId(res));
  }

  /**
   * One conditional update. Giving a record to a key is atomic: the unique index
   * bff_idempotency_one_key_per_record (migration 7) refuses a second key for one record, whatever
   * ran in between, on PGlite and on PostgreSQL shared by several BFF processes alike.
   */
  private async write(
    agencyId: number,
    key: string,
    attempt: string,
    res: { status: number; contentType: string | undefined; body: string },
    recordId: number | null,
  ): Promise<WriteOutcome> {
    try {
      const { rows } = await this.db.query(
        // Answered: the body is no longer needed (the hash matches retries), so it is dropped.
        `update bff_idempotency set state = 'answered', status = $4, content_type = $5, response = $6,
           answered_at = $7, record_id = $8, body = null
         where agency_id = $1 and idem_key = $2 and attempt = $3 and state = 'forwarded'
         returning idem_key`,
        [
          agencyId,
          key,
          attempt,
          res.status,
          res.contentType ?? null,
          res.body,
          this.now(),
          recordId,
        ],
      );
      return rows.length === 1 ? 'answered' : 'not_owner';
    } catch (err) {
      if (isRecordTaken(err)) return 'record_taken';
      throw err;
    }
  }

  /**
   * What other keys of the agency say about these record ids of `path`, read in one statement (one
   * snapshot): which ids the journal already gave to another key, and the bodies of the other
   * keys whose create is unsettled ('forwarded': it may have made any of them, or be making one
   * now). Reconciliation never gives one record to two creates, nor a record to one create while
   * another that could own it is unsettled.
   */
  async otherKeys(agencyId: number, path: string, key: string, ids: number[]): Promise<OtherKeys> {
    const { rows } = await this.db.query<{
      record_id: string | number | null;
      body: string | null;
    }>(
      `select record_id, null as body from bff_idempotency
        where agency_id = $1 and path = $2 and idem_key <> $3 and record_id = any($4::bigint[])
       union all
       select null, body from (
         select distinct on (body_hash) body from bff_idempotency
          where agency_id = $1 and path = $2 and idem_key <> $3 and state = 'forwarded') unsettled`,
      [agencyId, path, key, ids],
    );
    const given = new Set<number>();
    const unsettledBodies: string[] = [];
    for (const r of rows) {
      if (r.record_id !== null) given.add(Number(r.record_id));
      else if (r.body !== null) unsettledBodies.push(r.body);
    }
    return { given, unsettledBodies };
  }

  /**
   * Before reconciliation sends a create again: the new send time and a new lease, so a retry
   * arriving while this send may still be running upstream waits for it (idempotency_in_flight)
   * instead of reconciling from the first send's time and sending a third time. Returns false
   * when this attempt no longer owns the row (then it must not send).
   */
  async resend(agencyId: number, key: string, attempt: string): Promise<boolean> {
    const now = this.now();
    const { rows } = await this.db.query(
      `update bff_idempotency set forwarded_at = $4, lease_until = $5
       where agency_id = $1 and idem_key = $2 and attempt = $3 and state = 'forwarded'
       returning idem_key`,
      [agencyId, key, attempt, now, new Date(now.getTime() + this.leaseMs)],
    );
    return rows.length === 1;
  }

  /** Outcome unknown: keep the row 'forwarded' but end the lease so the next retry reconciles. */
  async abandon(agencyId: number, key: string, attempt: string): Promise<void> {
    await this.db.query(
      `update bff_idempotency set lease_until = $4
       where agency_id = $1 and idem_key = $2 and attempt = $3 and state = 'forwarded'`,
      [agencyId, key, attempt, new Date(0)],
    );
  }

  /** The upstream surely did not act: forget the key so a retry forwards afresh. */
  async release(agencyId: number, key: string, attempt: string): Promise<void> {
    await this.db.query(
      `delete from bff_idempotency where agency_id = $1 and idem_key = $2 and attempt = $3 and state = 'forwarded'`,
      [agencyId, key, attempt],
    );
  }

  async find(agencyId: number, key: string): Promise<JournalEntry | null> {
    const { rows } = await this.db.query<{
      agency_id: number;
      idem_key: string;
      method: string;
      path: string;
      body_hash: string;
      body: string | null;
      state: 'forwarded' | 'answered';
      attempt: string;
      lease_until: Date | string;
      created_at: Date | string;
      forwarded_at: Date | string;
      status: number | null;
      content_type: string | null;
      response: string | null;
    }>('select * from bff_idempotency where agency_id = $1 and idem_key = $2', [agencyId, key]);
    const r = rows[0];
    if (!r) return null;
    return {
      agencyId: r.agency_id,
      key: r.idem_key,
      method: r.method,
      path: r.path,
      bodyHash: r.body_hash,
      body: r.body,
      state: r.state,
      attempt: r.attempt,
      leaseUntil: new Date(r.lease_until),
      createdAt: new Date(r.created_at),
      forwardedAt: new Date(r.forwarded_at),
      status: r.status,
      contentType: r.content_type,
      response: r.response,
    };
  }

  /**
   * Notes a record the upstream made for a create sent without a key (issue 36 N6), as a row
   * that owns the record: reconciliation never gives it to a key whose answer was lost, since
   * this create provably made it. Nothing of the request or the answer is kept, only the id.
   */
  async noteKeylessCreate(
    agencyId: number,
    path: string,
    res: { status: number; body: string },
  ): Promise<void> {
    const recordId = createdRecordId(res);
    if (recordId === null) return;
    const now = this.now();
    try {
      await this.db.query(
        `insert into bff_idempotency (agency_id, idem_key, method, path, body_hash, body, state,
           attempt, lease_until, status, response, created_at, forwarded_at, answered_at, record_id)
         values ($1, $2, 'POST', $3, '', null, 'answered', $2, $4, $5, '', $4, $4, $4, $6)`,
        [agencyId, `${KEYLESS_PREFIX}${randomUUID()}`, path, now, res.status, recordId],
      );
    } catch (err) {
      // Already another row's (an upstream that answered with an existing record): owned anyway.
      if (!isRecordTaken(err)) throw err;
    }
  }

  /**
   * Whether `userKey` holds at least `limit` keys of the agency within the retention window.
   * Counts at most `limit` rows (an index range), so the check costs the same at any size.
   */
  async userAtCap(
    agencyId: number,
    userKey: string,
    limit = this.entriesPerUser,
  ): Promise<boolean> {
    const { rows } = await this.db.query<{ n: number }>(
      `select count(*)::int as n from (
         select 1 from bff_idempotency
          where agency_id = $1 and user_key = $2 and created_at >= $3 limit $4) held`,
      [agencyId, userKey, new Date(this.now().getTime() - IDEMPOTENCY_WINDOW_MS), limit],
    );
    return (rows[0]?.n ?? 0) >= limit;
  }

  async sweep(): Promise<void> {
    await this.db.query('delete from bff_idempotency where created_at < $1', [
      new Date(this.now().getTime() - IDEMPOTENCY_WINDOW_MS),
    ]);
  }
}
