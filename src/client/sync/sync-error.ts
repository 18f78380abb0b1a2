import { isOutcomeUnknown, type ErrorCode, type OutboxEntry, type OutboxError } from '#shared';
import { NetworkError, type HttpResult } from '../lib/http';

export type SyncErrorReason = OutboxError['reason'];

/** What the drain does with a failed send. */
export type SyncErrorAction = 'retry' | 'pause' | 'park';

/**
 * A failed send, typed by what should happen next:
 * - retry: network, timeout, 5xx, 429, 409 idempotency_in_flight (backoff, Retry-After honoured);
 * - pause: 401 reauth_required / unauthenticated / token_expired (the whole queue waits for sign-in);
 * - park: the server refused the change (409, 422 and other 4xx); retrying cannot help. This
 *   includes 409 create_outcome_unknown: the BFF cannot tell whether an earlier try of this create
 *   reached the server; asking again with the same key only gets the same answer, and taking it
 *   for done could lose the record, so the technician checks and sends again or discards.
 */
export class SyncError extends Error {
  constructor(
    readonly reason: SyncErrorReason,
    readonly status: number | null,
    readonly body: {
      code: string;
      message: string;
      fields?: { path: string; message: string }[];
    } | null,
    readonly retryAfterMs: number | null = null,
  ) {
    super(body?.message ?? reason);
    this.name = 'SyncError';
  }

  /** The server cannot tell whether this create was stored (see classify). */
  get outcomeUnknown(): boolean {
    return isOutcomeUnknown(this);
  }

  get action(): SyncErrorAction {
    if (this.reason === 'reauth') return 'pause';
    if (this.reason === 'rejected' || this.reason === 'conflict') return 'park';
    return 'retry';
  }

  toOutboxError(at: number): OutboxError {
    return { status: this.status, reason: this.reason, body: this.body, at };
  }
}

const REAUTH_CODES = new Set(['reauth_required', 'unauthenticated', 'token_expired']);
const OUTCOME_UNKNOWN: ErrorCode = 'create_outcome_unknown';
/** What the technician reads on a parked create whose outcome the server cannot tell. */
const OUTCOME_UNKNOWN_MESSAGE =
  "May already be on the server: check the server's records before sending again";

/**
 * A create that may already be on the server (isOutcomeUnknown): parked, never sent again under
 * its key; the technician checks, then sends it again under a new key or discards it. `status` is
 * the BFF's answer, null when the tablet decided it itself.
 */
export function outcomeUnknown(
  message = OUTCOME_UNKNOWN_MESSAGE,
  status: number | null = null,
): SyncError {
  return new SyncError('rejected', status, { code: OUTCOME_UNKNOWN, message });
}

/**
 * Classifies the outcome of one request: null for a success, otherwise a SyncError.
 * `outcome` is an HttpResult or whatever `request()` threw.
 */
export function classify(outcome: HttpResult | unknown): SyncError | null {
  if (outcome instanceof NetworkError) {
    return new SyncError(outcome.timedOut ? 'timeout' : 'network', null, null);
  }
  if (!isHttpResult(outcome)) {
    const message = outcome instanceof Error ? outcome.message : String(outcome);
    return new SyncError('network', null, { code: 'network', message });
  }
  if (outcome.ok) return null;
  const { status, error, retryAfterMs } = outcome;
  if (status === 401 && REAUTH_CODES.has(error.code)) return new SyncError('reauth', status, error);
  if (status === 429) return new SyncError('rate_limited', status, error, retryAfterMs);
  if (status === 408) return new SyncError('timeout', status, error, retryAfterMs);
  // The first request with this key is still being processed: its answer will be replayed later.
  if (status === 409 && error.code === 'idempotency_in_flight') {
    return new SyncError('server', status, error, retryAfterMs);
  }
  // The app's own words: the technician must check the server before choosing Send again.
  if (status === 409 && error.code === OUTCOME_UNKNOWN) return outcomeUnknown(undefined, status);
  if (status >= 500) return new SyncError('server', status, error, retryAfterMs);
  return new SyncError('rejected', status, error);
}

function isHttpResult(v: unknown): v is HttpResult {
  return typeof v === 'object' && v !== null && 'ok' in v && 'status' in v && 'headers' in v;
}

/** Discarding would drop entries the caller did not name: nothing was discarded. */
export class DependentsNotConfirmedError extends Error {
  constructor(readonly dependents: OutboxEntry[]) {
    super(
      `${dependents.length} other change(s) depend on this one; confirm them to discard together`,
    );
    this.name = 'DependentsNotConfirmedError';
  }
}
