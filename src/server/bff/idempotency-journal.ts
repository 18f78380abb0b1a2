import { createHash, randomUUID } from 'node:crypto';
import type { Database } from '../db/database';
import { IDEMPOTENCY_WINDOW_MS } from '#shared/schemas/outbox';

/** A journal row as a request sees it. */
export type JournalEntry = {
  agencyId: number;
  key: string;
  method: string;
  path: string;
  bodyHash: string;
  body: string;
  state: 'forwarded' | 'answered';
  attempt: string;
  leaseUntil: Date;
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

/** Keys are honoured for 24 hours (contract §9); older rows are as if absent. */
const JOURNAL_RETENTION_MS = IDEMPOTENCY_WINDOW_MS;

/**
 * The BFF's idempotency journal (ARCHITECTURE: BFF). Protocol for a POST with a key:
 * 1. `claim` records the key, body hash and a lease BEFORE anything is forwarded.
 * 2. The owner forwards, then `answer`s (status and body, replayed to every retry), or, when the
 *    outcome is unknown (reset, timeout, 5xx), `abandon`s: the row stays 'forwarded' with its lease
 *    ended; or, when the upstream surely did not act (refused connect, 401, 429), `release`s it.
 * 3. A 'forwarded' row whose lease ended (its owner died or abandoned it) is taken over by the next
 *    retry, which must reconcile with the upstream before forwarding again.
 * Every write after the claim is conditioned on `attempt`, so a late owner cannot overwrite a
 * row someone else took over.
 */
export class IdempotencyJournal {
  constructor(
    private readonly db: Database,
    /** How long the forwarding process owns a key: its connect and response time, and a margin. */
    readonly leaseMs: number,
    private readonly now: () => Date,
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
         created_at, forwarded_at)
       values ($1, $2, $3, $4, $5, $6, 'forwarded', $7, $8, $9, $9)
       on conflict (agency_id, idem_key) do update set
         method = excluded.method, path = excluded.path, body_hash = excluded.body_hash, body = excluded.body,
         state = 'forwarded', attempt = excluded.attempt, lease_until = excluded.lease_until,
         status = null, content_type = null, response = null,
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
        new Date(now.getTime() - JOURNAL_RETENTION_MS),
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

  /** Records the answer to replay. Returns false when this attempt no longer owns the row. */
  async answer(
    agencyId: number,
    key: string,
    attempt: string,
    res: { status: number; contentType: string | undefined; body: string },
  ): Promise<boolean> {
    const { rows } = await this.db.query(
      `update bff_idempotency set state = 'answered', status = $4, content_type = $5, response = $6,
         answered_at = $7, record_id = $8
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
        createdRecordId(res),
      ],
    );
    return rows.length === 1;
  }

  /**
   * Which of these record ids of `path` the journal already gave, as a create's answer, to a key
   * other than `key`: reconciliation must never give one record to two creates.
   */
  async givenElsewhere(
    agencyId: number,
    path: string,
    key: string,
    ids: number[],
  ): Promise<Set<number>> {
    const { rows } = await this.db.query<{ record_id: string | number }>(
      `select record_id from bff_idempotency
        where agency_id = $1 and path = $2 and record_id = any($3::bigint[]) and idem_key <> $4`,
      [agencyId, path, ids, key],
    );
    return new Set(rows.map((r) => Number(r.record_id)));
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
      body: string;
      state: 'forwarded' | 'answered';
      attempt: string;
      lease_until: Date | string;
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
      forwardedAt: new Date(r.forwarded_at),
      status: r.status,
      contentType: r.content_type,
      response: r.response,
    };
  }

  async sweep(): Promise<void> {
    await this.db.query('delete from bff_idempotency where created_at < $1', [
      new Date(this.now().getTime() - JOURNAL_RETENTION_MS),
    ]);
  }
}
