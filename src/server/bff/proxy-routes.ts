import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { entityAtPath } from '#shared/entities';
import { HttpError } from '../http/http-error';
import { reauthRequired } from './session-errors';
import type { BffContext } from './context';
import { canonicalJson, parseJson } from './parse-json';
import { upstreamErrorCode } from './upstream-error-code';
import { isPathId } from '../http/path-id';
import { PROXY_ALLOW_LIST, allowedMethods, type ProxyRoute } from './proxy-allow-list';
import { reconcileCreate } from './reconcile-create';
import { dropReportLists } from './reports/report-lists';
import { requireSession, sessionOf } from './require-session';
import type { JournalEntry } from './idempotency-journal';
import type { StoredSession } from './session-store';
import { UpstreamError, type UpstreamResponse } from './upstream-client';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Idempotency keys: UUIDs in practice; any short token of safe characters is accepted. */
const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]{1,200}$/;

/**
 * `/api/v1/...`: one route per allow-listed method and path, forwarded to the upstream's `/v1/...`.
 * This is the one place where headers are stripped and added: only Content-Type, Accept,
 * Idempotency-Key and the query string go up, with the session's Bearer token; only Content-Type
 * and Retry-After come back (never Set-Cookie).
 */
export async function proxyRoutes(app: FastifyInstance, ctx: BffContext): Promise<void> {
  for (const route of PROXY_ALLOW_LIST) {
    app.route({
      method: route.method,
      url: `/api${route.path}`,
      // No automatic HEAD twin: it would forward a GET upstream for a method the list never named.
      exposeHeadRoute: false,
      preHandler: requireSession(ctx),
      handler: (req, reply) => proxy(ctx, route, req, reply),
    });
  }
}

async function proxy(ctx: BffContext, route: ProxyRoute, req: FastifyRequest, reply: FastifyReply) {
  const session = sessionOf(req);
  const params = req.params as { id?: string };
  if (params.id !== undefined && !isPathId(params.id)) {
    const path = route.path.replace(':id', params.id);
    const allow = allowedMethods(path);
    if (allow.length > 0) throw methodNotAllowed(req.method, path, allow);
    throw new HttpError(404, 'not_found', 'Record not found');
  }
  // The upstream path is rebuilt from the allow-listed pattern, never copied from the raw URL.
  const path = params.id !== undefined ? route.path.replace(':id', params.id) : route.path;
  const rawUrl = req.raw.url ?? '';
  const q = rawUrl.indexOf('?');
  const query = q >= 0 ? rawUrl.slice(q + 1) : '';
  const hasBody = route.method === 'POST' || route.method === 'PUT';
  if (hasBody && (req.body === undefined || req.body === null)) {
    throw new HttpError(400, 'bad_request', 'Send the record as a JSON body');
  }
  const body = hasBody ? JSON.stringify(req.body) : undefined;
  // A secret shown once is never journaled: such a request goes up without its key.
  const key = route.secretAnswer ? undefined : headerValue(req.headers['idempotency-key']);
  if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) {
    throw new HttpError(
      400,
      'bad_request',
      'Idempotency-Key must be a UUID (letters, digits, dashes)',
    );
  }
  const headers: Record<string, string> = {
    accept: headerValue(req.headers.accept) ?? 'application/json',
    authorization: `Bearer ${session.token}`,
  };
  if (hasBody) headers['content-type'] = 'application/json';
  if (key !== undefined) headers['idempotency-key'] = key;
  const forward = () => ctx.upstream.request({ method: route.method, path, query, headers, body });

  if (route.method !== 'POST' || key === undefined) {
    const res = await forward();
    if (endsSignIns(route, req.body, res))
      await ctx.sessions.expireTokensOfUser(session.info.agency.id, Number(params.id), ctx.now());
    // A record made without a key is provably not a keyed create's whose answer was lost.
    if (route.method === 'POST' && entityAtPath(path))
      await ctx.journal.noteKeylessCreate(session.info.agency.id, path, res);
    return send(ctx, session, reply, res);
  }
  return idempotentCreate(ctx, session, reply, { path, key, body: body ?? '', forward });
}

/**
 * A person's deactivation or password reset answered 2xx upstream (so the person is of the
 * session's agency): their sessions here end at once, not at their next upstream refusal, so
 * that no answer the BFF serves from what it holds (lookups, a session check) reaches them.
 */
function endsSignIns(route: ProxyRoute, body: unknown, res: UpstreamResponse): boolean {
  if (res.status < 200 || res.status >= 300) return false;
  if (route.method === 'POST' && route.path === '/v1/user/:id/password') return true;
  return (
    route.method === 'PUT' &&
    route.path === '/v1/user/:id' &&
    typeof body === 'object' &&
    body !== null &&
    (body as { active?: unknown }).active === false
  );
}

/** Step numbers follow the journal protocol in idempotency-journal.ts. */
async function idempotentCreate(
  ctx: BffContext,
  session: StoredSession,
  reply: FastifyReply,
  req: { path: string; key: string; body: string; forward: () => Promise<UpstreamResponse> },
) {
  const agencyId = session.info.agency.id;
  // Hashed in canonical form: the same record with its keys in another order is the same request.
  const canonical = canonicalJson(parseJson(req.body));
  // Written out again, a body can grow (1e20 is 21 digits): never store more than is taken.
  if (Buffer.byteLength(canonical) > JOURNAL_BODY_LIMIT) throw journalBodyTooLarge();
  const userKey = session.info.user.username.toLowerCase();
  if (
    (await ctx.journal.userAtCap(agencyId, userKey)) &&
    !(await ctx.journal.find(agencyId, req.key))
  ) {
    throw tooManyKeys();
  }
  // Step 1: the key is recorded before anything goes upstream.
  const claim = await ctx.journal.claim({
    agencyId,
    userKey,
    key: req.key,
    method: 'POST',
    path: req.path,
    body: canonical,
  });
  switch (claim.kind) {
    case 'replay':
      reply.header('idempotent-replayed', 'true');
      return send(ctx, session, reply, {
        status: claim.entry.status ?? 200,
        contentType: claim.entry.contentType ?? 'application/json',
        retryAfter: undefined,
        body: claim.entry.response ?? '',
      });
    case 'key_reused': {
      const message =
        'This Idempotency-Key was already used for a different request; send a new key for a new record';
      // Contract §2: a 422 names its fields; here the failing "field" is the header.
      throw new HttpError(422, 'idempotency_key_reused', message, [
        { path: 'Idempotency-Key', message },
      ]);
    }
    case 'in_flight':
      throw new HttpError(
        409,
        'idempotency_in_flight',
        'The same request is still being processed; try again in a moment',
        undefined,
        { 'retry-after': '1' },
      );
    case 'reconcile':
    case 'forward':
      break;
  }
  const { attempt } = claim;
  // Step 3: a forwarded-but-unanswered key: settle what the upstream did before anything else.
  if (claim.kind === 'reconcile') {
    const proven = await settleFromUpstream(ctx, session, req, claim.entry, attempt);
    if (proven !== 'forward') {
      reply.header('idempotent-replayed', 'true');
      return send(ctx, session, reply, proven);
    }
  }
  // Step 2: forward, then record the answer, or leave the outcome open for reconciliation.
  let res: UpstreamResponse;
  try {
    res = await req.forward();
  } catch (err) {
    if (err instanceof UpstreamError && !err.delivered)
      await ctx.journal.release(agencyId, req.key, attempt);
    else await ctx.journal.abandon(agencyId, req.key, attempt);
    throw err;
  }
  ctx.upstreamKeys.learn(req.key, res);
  if (res.replayed) reply.header('idempotent-replayed', 'true');
  if (isFinalAnswer(res) && !isLargeRefusal(res))
    await ctx.journal.answer(agencyId, req.key, attempt, res);
  else if (res.status >= 500) await ctx.journal.abandon(agencyId, req.key, attempt);
  else await ctx.journal.release(agencyId, req.key, attempt);
  return send(ctx, session, reply, res);
}

/**
 * Step 3 for a row this attempt took over: the proven answer, recorded, or 'forward' once the
 * journal records this new send (`resend`), so that a retry arriving while it may still be
 * running upstream waits for it rather than reconciling from the previous send's time. Throws
 * the answer to give otherwise, leaving the row 'forwarded' with its lease ended.
 */
async function settleFromUpstream(
  ctx: BffContext,
  session: StoredSession,
  req: { path: string; key: string; body: string },
  entry: JournalEntry,
  attempt: string,
): Promise<UpstreamResponse | 'forward'> {
  const agencyId = session.info.agency.id;
  try {
    const proven = await reconcile(ctx, session, req, entry);
    if (proven === 'forward') {
      if (!(await ctx.journal.resend(agencyId, req.key, attempt))) throw inFlight(1_000);
      return 'forward';
    }
    // The unique index refuses a record another key was given meanwhile: not provably ours.
    if ((await ctx.journal.answerReconciled(agencyId, req.key, attempt, proven)) === 'record_taken')
      throw outcomeUnknown();
    return proven;
  } catch (err) {
    await ctx.journal.abandon(agencyId, req.key, attempt);
    // An upstream 401 here means what it means in send(): stop using this token.
    if (err instanceof HttpError && err.code === 'reauth_required') {
      await ctx.sessions.expireToken(session, ctx.now());
    }
    throw err;
  }
}

/**
 * What to do with a create whose first forward has no recorded answer (its BFF died, the answer
 * was lost, the upstream timed out or failed). Never a guess:
 * - an upstream that honours Idempotency-Key (detected, upstream-keys.ts) is sent the same key
 *   again ('forward'): it replays the one record it made, or makes it now if it never did;
 * - otherwise the upstream's lists must prove it (reconcile-create.ts): exactly one stored record
 *   that is this request's own is replayed; none at all means forward again, but only once the
 *   latest forward cannot still be running upstream (its lease is over); anything else is a 409
 *   create_outcome_unknown that the app parks for the technician to check. Records count as
 *   candidates from the first forward on (`createdAt`): any send of this key may have made one.
 */
async function reconcile(
  ctx: BffContext,
  session: StoredSession,
  req: { path: string; key: string; body: string },
  entry: JournalEntry,
): Promise<UpstreamResponse | 'forward'> {
  if (await ctx.upstreamKeys.honours(session.token)) return 'forward';
  const agencyId = session.info.agency.id;
  const result = await reconcileCreate(
    ctx.upstream,
    session.token,
    req.path,
    req.body,
    entry.createdAt,
    (ids) => ctx.journal.otherKeys(agencyId, req.path, req.key, ids),
    session.info.user,
  );
  if (result.kind === 'found') {
    return {
      status: 201,
      contentType: JSON_TYPE,
      retryAfter: undefined,
      body: JSON.stringify(result.record),
    };
  }
  if (result.kind === 'ambiguous') throw outcomeUnknown();
  // The latest send (forwarded_at) may still be running upstream until its lease is over.
  const stillRunningMs = entry.forwardedAt.getTime() + ctx.journal.leaseMs - ctx.now().getTime();
  if (stillRunningMs > 0) throw inFlight(stillRunningMs);
  return 'forward';
}

/** A body the journal would store is at most what the upstream takes (contract §2). */
const JOURNAL_BODY_LIMIT = 1024 * 1024;

/**
 * A refusal's answer larger than this is not stored: nothing was created, so a retry may as well
 * be judged again, and a refusal never costs the journal more than a few kB.
 */
const REFUSAL_KEPT_MAX = 16 * 1024;

function isLargeRefusal(res: UpstreamResponse): boolean {
  return res.status >= 400 && Buffer.byteLength(res.body) > REFUSAL_KEPT_MAX;
}

function journalBodyTooLarge(): HttpError {
  return new HttpError(
    413,
    'payload_too_large',
    'The record is over 1 MiB once read; send a smaller one',
  );
}

function tooManyKeys(): HttpError {
  return new HttpError(
    429,
    'rate_limited',
    'Too many records sent in the last 24 hours from this account; the rest will be sent later',
    undefined,
    { 'retry-after': '3600' },
  );
}

function outcomeUnknown(): HttpError {
  return new HttpError(
    409,
    'create_outcome_unknown',
    'This record may already be on the server: check before sending it again',
  );
}

function inFlight(stillRunningMs: number): HttpError {
  return new HttpError(
    409,
    'idempotency_in_flight',
    'The same request may still be running on the records service; try again shortly',
    undefined,
    { 'retry-after': String(Math.ceil(stillRunningMs / 1000)) },
  );
}

/**
 * Answers worth replaying: success, and 4xx that judge the request itself. Not: 401 (the token),
 * 408/429 (try later), 409 idempotency_in_flight (upstream still busy), 5xx (outcome unknown).
 */
function isFinalAnswer(res: UpstreamResponse): boolean {
  if (res.status >= 200 && res.status < 300) return true;
  if (res.status < 400 || res.status >= 500) return false;
  if (res.status === 401 || res.status === 408 || res.status === 429) return false;
  return !(res.status === 409 && upstreamErrorCode(res) === 'idempotency_in_flight');
}

/** Upstream answer → browser answer: 2xx and 4xx pass unchanged; 401 → reauth; 5xx → 502. */
async function send(
  ctx: BffContext,
  session: StoredSession,
  reply: FastifyReply,
  res: UpstreamResponse,
) {
  if (res.status === 401) {
    await ctx.sessions.expireToken(session, ctx.now());
    throw reauthRequired();
  }
  if (res.status >= 500 || res.status < 200 || (res.status >= 300 && res.status < 400)) {
    throw new HttpError(
      502,
      'upstream_unavailable',
      'The records service had a problem and did not confirm this request; it will be sent again',
    );
  }
  // The agency's data changed (or may have, on a 2xx replay): its reports must read it again.
  if (res.status < 300 && reply.request.method !== 'GET')
    dropReportLists(ctx, session.info.agency.id);
  if (res.retryAfter) reply.header('retry-after', res.retryAfter);
  // The upstream's clock stamped its records' `updated`: a list's Date is what the tablet's pull
  // measures how far back to look by (client/sync/pull-mark.ts), not the BFF's clock.
  if (res.date && reply.request.method === 'GET') reply.header('date', res.date);
  // Always JSON, whatever the upstream says: an upstream's text/html must never be served from
  // the app's origin.
  reply.header('content-type', JSON_TYPE);
  return reply.status(res.status).send(res.body);
}

export function methodNotAllowed(method: string, path: string, allow: string[]) {
  return new HttpError(
    405,
    'method_not_allowed',
    `${method} is not allowed on ${path}`,
    undefined,
    {
      allow: allow.join(', '),
    },
  );
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
