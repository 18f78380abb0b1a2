import type { OutboxError } from '../../shared';
import { NetworkError, type HttpResult } from '../lib/http';

export type SyncErrorReason = OutboxError['reason'];

/** What the drain does with a failed send. */
export type SyncErrorAction = 'retry' | 'pause' | 'park';

/**
 * A failed send, typed by what should happen next:
 * - retry: network, timeout, 5xx, 429, 409 idempotency_in_flight (backoff, Retry-After honoured);
 * - pause: 401 reauth_required / unauthenticated / token_expired (the whole queue waits for sign-in);
 * - park: the server refused the change (409, 422 and other 4xx); retrying cannot help.
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
  if (status >= 500) return new SyncError('server', status, error, retryAfterMs);
  return new SyncError('rejected', status, error);
}

function isHttpResult(v: unknown): v is HttpResult {
  return typeof v === 'object' && v !== null && 'ok' in v && 'status' in v && 'headers' in v;
}
