import { describe, expect, it } from 'vitest';
import { NetworkError, type HttpResult } from '../../../src/client/lib/http';
import { SyncError, classify } from '../../../src/client/sync';

const fail = (status: number, code: string, retryAfterMs: number | null = null): HttpResult => ({
  ok: false,
  status,
  error: { code, message: `${code} message` },
  headers: new Headers(),
  retryAfterMs,
});

describe('classify', () => {
  it('treats a success as no error', () => {
    expect(classify({ ok: true, status: 201, body: { id: 1 }, headers: new Headers() })).toBeNull();
  });

  it('retries network failures and timeouts', () => {
    expect(classify(new NetworkError('offline'))).toMatchObject({
      reason: 'network',
      action: 'retry',
    });
    expect(classify(new NetworkError('slow', true))).toMatchObject({
      reason: 'timeout',
      action: 'retry',
    });
    expect(classify(new TypeError('fetch failed'))).toMatchObject({
      reason: 'network',
      action: 'retry',
    });
  });

  it('retries 5xx and 429, keeping Retry-After', () => {
    expect(classify(fail(503, 'upstream_unavailable'))).toMatchObject({
      reason: 'server',
      action: 'retry',
    });
    expect(classify(fail(500, 'internal'))).toMatchObject({ reason: 'server', action: 'retry' });
    expect(classify(fail(429, 'rate_limited', 7000))).toMatchObject({
      reason: 'rate_limited',
      action: 'retry',
      retryAfterMs: 7000,
    });
  });

  it('retries a key still being processed instead of parking it', () => {
    expect(classify(fail(409, 'idempotency_in_flight'))).toMatchObject({ action: 'retry' });
  });

  it('parks a create whose outcome the server cannot tell, with words that say what to check', () => {
    const error = classify(fail(409, 'create_outcome_unknown', null)) as SyncError;
    // Never retried with the same key (the BFF would only say the same), never taken for done.
    expect(error).toMatchObject({ reason: 'rejected', action: 'park', status: 409 });
    expect(error.body).toMatchObject({
      code: 'create_outcome_unknown',
      message: "May already be on the server: check the server's records before sending again",
    });
    expect(error.outcomeUnknown).toBe(true);
    expect(classify(fail(409, 'site_code_taken'))).toMatchObject({ outcomeUnknown: false });
    // A 409 for a key still being processed is a different thing: its answer will come.
    expect(classify(fail(409, 'idempotency_in_flight'))).toMatchObject({
      action: 'retry',
      outcomeUnknown: false,
    });
  });

  it('pauses the queue when sign-in is needed', () => {
    expect(classify(fail(401, 'reauth_required'))).toMatchObject({
      reason: 'reauth',
      action: 'pause',
    });
    expect(classify(fail(401, 'unauthenticated'))).toMatchObject({
      reason: 'reauth',
      action: 'pause',
    });
  });

  it('parks what the server refused, with its message', () => {
    const error = classify(fail(409, 'site_code_taken')) as SyncError;
    expect(error).toBeInstanceOf(SyncError);
    expect(error).toMatchObject({ reason: 'rejected', action: 'park', status: 409 });
    expect(error.body?.message).toBe('site_code_taken message');
    expect(classify(fail(422, 'validation_failed'))).toMatchObject({
      reason: 'rejected',
      action: 'park',
    });
    expect(classify(fail(403, 'forbidden'))).toMatchObject({ action: 'park' });
  });
});
