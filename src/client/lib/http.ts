import { OWNER_HEADER, ownerHeaderValue } from '#shared/schemas/auth';
import { errorBody, type ErrorBody } from '#shared/schemas/error';
import { connection, outcomeOf } from './connection';

/**
 * The one HTTP client to the BFF. Same origin, cookie session; every request carries
 * `X-CSRF: 1` (the BFF refuses /api requests without it).
 */
export type HttpResult<T = unknown> =
  | { ok: true; status: number; body: T; headers: Headers }
  | {
      ok: false;
      status: number;
      error: ErrorBody['error'];
      headers: Headers;
      retryAfterMs: number | null;
      /** The whole error answer as parsed (a site import's report rides beside its error). */
      details?: unknown;
    };

/** Raised when the request never got an HTTP answer (offline, DNS, reset, aborted by timeout). */
export class NetworkError extends Error {
  constructor(
    message: string,
    readonly timedOut = false,
  ) {
    super(message);
  }
}

type AuthListener = (code: 'reauth_required' | 'unauthenticated') => void;
const authListeners = new Set<AuthListener>();

/** Called whenever the BFF says the session is gone or its upstream token expired. */
export function onAuthRequired(listener: AuthListener): () => void {
  authListeners.add(listener);
  return () => authListeners.delete(listener);
}

/** OWNER_HEADER's value for the user this page acts for (see actFor); null when nobody is signed in. */
let actingFor: string | null = null;

/**
 * The user this page acts for (the signed-in app's), named from now on on every request
 * (OWNER_HEADER). The browser has one session cookie for the origin: once another tab signed in
 * as someone else, this page's requests carry their cookie, and the BFF then answers 401
 * reauth_required (this page's user is asked to sign in) instead of the other user's data: their
 * agency's reports, exports or lookups are never shown, saved or kept under this user's name.
 * Returns the undo.
 */
export function actFor(owner: { agencyId: number; username: string }): () => void {
  const value = ownerHeaderValue(owner);
  actingFor = value;
  return () => {
    if (actingFor === value) actingFor = null;
  };
}

/**
 * Whether a refused request's answer is about the user this page acts for now: not one sent for
 * a user who has signed out since (a slow request of theirs, refused once their session ended),
 * which must not ask the next user to sign in, or pause their queue, just after they did.
 */
function actsForCurrentUser(sentFor: string | undefined): boolean {
  return sentFor === undefined || actingFor === null || sentFor === actingFor;
}

/** The header naming the user this page acts for, for a fetch made outside `request`. */
export function ownerHeaders(): Record<string, string> {
  return actingFor ? { [OWNER_HEADER]: actingFor } : {};
}

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /** A body sent as it is (a file) with its media type, instead of `body` as JSON. */
  rawBody?: { contentType: string; data: Blob | string };
  headers?: Record<string, string>;
  /** Abort after this many ms (default 30 s): a hung request must not stall the queue. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /**
   * 'text': a successful answer's body as sent, not parsed (its reader parses it, perhaps in a
   * worker). Default 'json'. An error's body is parsed either way.
   */
  bodyAs?: 'json' | 'text';
};

export async function request<T = unknown>(
  path: string,
  options: RequestOptions = {},
): Promise<HttpResult<T>> {
  // A timer of our own, cleared once the answer is read: AbortSignal.timeout leaves every
  // request's timer and signal alive for the whole 30 s, a drain's hundreds of them at once
  // (profiled in the Node drain bench: under 1% of the drain, and each outlived its request).
  const timeout = new AbortController();
  const timer = setTimeout(
    () => timeout.abort(new DOMException('The request timed out', 'TimeoutError')),
    options.timeoutMs ?? 30_000,
  );
  try {
    return await send<T>(path, options, timeout.signal);
  } finally {
    clearTimeout(timer);
  }
}

async function send<T>(
  path: string,
  options: RequestOptions,
  timeout: AbortSignal,
): Promise<HttpResult<T>> {
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const headers: Record<string, string> = {
    'X-CSRF': '1',
    Accept: 'application/json',
    ...ownerHeaders(),
    ...options.headers,
  };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.rawBody) headers['Content-Type'] = options.rawBody.contentType;
  // The answer counts only once its body has arrived whole: a connection dropped (or the timeout
  // fired) after the headers is a network failure like one before them. Read as empty, a
  // create's 201 would be taken as acknowledged with no server id.
  let res: Response;
  let text: string;
  // Every request's outcome is the app's evidence of a connection (lib/connection).
  const ended = connection.track();
  try {
    res = await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      body: options.rawBody
        ? options.rawBody.data
        : options.body === undefined
          ? undefined
          : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal,
    });
    text = await res.text();
  } catch (err) {
    // Stopped by its caller (a screen left, a query replaced): that says nothing of the network.
    if (timeout.aborted || !options.signal?.aborted) ended('unanswered');
    throw new NetworkError(err instanceof Error ? err.message : String(err), timeout.aborted);
  }
  ended(outcomeOf(res.status));
  if (res.ok && options.bodyAs === 'text')
    return { ok: true, status: res.status, body: text as T, headers: res.headers };
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (res.ok) return { ok: true, status: res.status, body: json as T, headers: res.headers };
  const parsed = errorBody.safeParse(json);
  const error = parsed.success
    ? parsed.data.error
    : {
        code: res.status >= 500 ? 'upstream_unavailable' : 'bad_request',
        message: text.slice(0, 300) || `HTTP ${res.status}`,
      };
  if (
    res.status === 401 &&
    (error.code === 'reauth_required' || error.code === 'unauthenticated') &&
    actsForCurrentUser(headers[OWNER_HEADER])
  ) {
    for (const l of authListeners) l(error.code);
  }
  return {
    ok: false,
    status: res.status,
    error,
    headers: res.headers,
    retryAfterMs: retryAfterMs(res.headers.get('Retry-After')),
    details: json,
  };
}

/**
 * `fetch` for the few callers that read the answer's body themselves (file downloads): its
 * outcome is the app's evidence of a connection like any request's (an answer's headers count as
 * an answer). Throws what fetch throws.
 */
export async function fetchReportingConnection(path: string, init: RequestInit): Promise<Response> {
  const ended = connection.track();
  let res: Response;
  try {
    res = await fetch(path, init);
  } catch (err) {
    if (!init.signal?.aborted) ended('unanswered');
    throw err;
  }
  ended(outcomeOf(res.status));
  return res;
}

/** `Retry-After` in seconds or as an HTTP date → milliseconds from now. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const secs = Number(value);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
