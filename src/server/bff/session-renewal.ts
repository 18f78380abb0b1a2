import type { FastifyBaseLogger } from 'fastify';
import { loginResponse } from '#shared/schemas/auth';
import type { BffContext } from './context';
import { parseJson } from './parse-json';
import { upstreamErrorCode } from './upstream-error-code';
import type { StoredSession } from './session-store';

/**
 * Renewed this long before its expiry: a request never meets the token's last minutes, and a
 * tablet that syncs every few minutes keeps one live token all day.
 */
export const RENEW_AHEAD_MS = 5 * 60_000;
const RENEW_TIMEOUT_MS = 10_000;

/** One renewal at a time per session in this process: a tablet's burst of requests shares it. */
const underWay = new WeakMap<BffContext, Map<string, Promise<StoredSession>>>();

/**
 * The session with a token that is not about to expire, renewed through the upstream's
 * POST /login/renew (a Trapline extension) when it is due: the tablet stays signed in past the
 * login token's hour, and after a night with the server off, for as long as it is used within
 * the renew window (issue 35). Never throws: an upstream that cannot renew (the public service:
 * 404), refuses (a deactivated user, a token past the window) or does not answer leaves the
 * session as it was, and an expired one then says reauth_required as before.
 * Another BFF process sharing the session table may have renewed first (token_renewed): its
 * token is read back from the table.
 */
export async function withLiveToken(
  ctx: BffContext,
  session: StoredSession,
  log: FastifyBaseLogger,
): Promise<StoredSession> {
  if (!session.renewable) return session;
  if (session.tokenExpiresAt.getTime() - ctx.now().getTime() > RENEW_AHEAD_MS) return session;
  let mine = underWay.get(ctx);
  if (!mine) underWay.set(ctx, (mine = new Map()));
  const running = mine.get(session.idHash);
  if (running) return running;
  const renewal = renew(ctx, session, log).finally(() => mine.delete(session.idHash));
  mine.set(session.idHash, renewal);
  return renewal;
}

async function renew(
  ctx: BffContext,
  session: StoredSession,
  log: FastifyBaseLogger,
): Promise<StoredSession> {
  let res;
  try {
    res = await ctx.upstream.request({
      method: 'POST',
      path: '/login/renew',
      headers: { authorization: `Bearer ${session.token}`, accept: 'application/json' },
      timeoutMs: RENEW_TIMEOUT_MS,
    });
  } catch (err) {
    log.warn({ err }, 'renewing the upstream token failed; the session keeps its token');
    return session;
  }
  if (res.status === 200) {
    const granted = loginResponse.safeParse(parseJson(res.body));
    const expires = granted.success ? Date.parse(granted.data.expires_at ?? '') : Number.NaN;
    if (!granted.success || Number.isNaN(expires)) return session;
    const tokenExpiresAt = new Date(expires);
    await ctx.sessions.renewed(session.idHash, granted.data.token, tokenExpiresAt);
    return {
      ...session,
      token: granted.data.token,
      tokenExpiresAt,
      info: { ...session.info, expiresAt: tokenExpiresAt.toISOString() },
    };
  }
  if (res.status === 401 && upstreamErrorCode(res) === 'token_renewed') {
    return (await ctx.sessions.reread(session.idHash, ctx.now())) ?? session;
  }
  if (res.status === 404 || res.status === 405) {
    await ctx.sessions.cannotRenew(session.idHash);
    return { ...session, renewable: false };
  }
  if (res.status === 401 || res.status === 403) {
    // Refused for good (revoked, deactivated, past the window): the password is asked.
    const now = ctx.now();
    await ctx.sessions.expireToken(session, now);
    const tokenExpiresAt = session.tokenExpiresAt < now ? session.tokenExpiresAt : now;
    return { ...session, renewable: false, tokenExpiresAt };
  }
  // An upstream in trouble (5xx, 429): asked again on the next request.
  log.info({ status: res.status }, 'the upstream did not renew the token');
  return session;
}
