import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { loginRequest, loginResponse, whoAmI, type SessionInfo } from '#shared/schemas/auth';
import { fieldsFromZod, summarizeFields } from '#shared/schemas/error';
import { HttpError } from '../http/http-error';
import { parseJson } from './parse-json';
import type { BffContext } from './context';
import { LoginLimits, rateLimited } from '../http/login-limits';
import { currentSession, ownedBy, requireSession, sessionOf } from './require-session';
import { SESSION_COOKIE, type StoredSession } from './session-store';

/** Contract §7 gives login tokens one hour; used when the upstream states no expiry. */
const DEFAULT_TOKEN_LIFETIME_MS = 3600_000;

const COOKIE_OPTIONS = {
  path: '/',
  httpOnly: true,
  // Always Secure: browsers accept it on http://localhost and 127.0.0.1 (loopback is trustworthy).
  secure: true,
  sameSite: 'strict',
} as const;

/** POST / GET / DELETE /api/session. */
export async function sessionRoutes(app: FastifyInstance, ctx: BffContext): Promise<void> {
  // The same limits as the records service's /login (contract §7), in front of the upstream's.
  const limits = new LoginLimits(ctx.loginLimits);

  app.post('/api/session', async (req, reply) => {
    const parsed = loginRequest.safeParse(req.body ?? {});
    if (!parsed.success) {
      const fields = fieldsFromZod(parsed.error);
      throw new HttpError(422, 'validation_failed', summarizeFields(fields), fields);
    }
    const { username, password } = parsed.data;
    const now = ctx.now().getTime();
    limits.attempt(req.ip, now);
    // Counted as a failure while the upstream checks the password: a burst of attempts for one
    // username cannot all pass before the first failure is in.
    const attempt = limits.begin(username, now);
    let login;
    try {
      login = await ctx.upstream.request({
        method: 'POST',
        path: '/login',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ username, password }),
      });
      if (login.status !== 200 && login.status !== 201) {
        if (login.status === 429) throw rateLimited(Number(login.retryAfter) || 60);
        if (login.status >= 500) throw upstreamFailed();
        attempt.failed(now);
        throw new HttpError(401, 'invalid_credentials', 'Wrong username or password');
      }
    } finally {
      attempt.done();
    }
    const granted = loginResponse.safeParse(parseJson(login.body));
    if (!granted.success)
      throw upstreamFailed('The records service answered the sign-in with something unexpected');
    const info = await identify(ctx, username, granted.data);

    // A sign-in always makes a new session id (no fixation); the previous one of this browser
    // ends, and with it its upstream token.
    const previous = await currentSession(ctx, req);
    if (previous) await endSession(ctx, req, previous);
    const id = await ctx.sessions.create(granted.data.token, info);
    reply.setCookie(SESSION_COOKIE, id, COOKIE_OPTIONS);
    return info;
  });

  app.get('/api/session', { preHandler: requireSession(ctx) }, async (req) => sessionOf(req).info);

  app.delete('/api/session', async (req: FastifyRequest, reply: FastifyReply) => {
    const session = await currentSession(ctx, req);
    // A tab still open for a user who signed out in another tab, where someone else then signed
    // in: the cookie is theirs now. Signing that tab out ends nothing of theirs.
    if (session && !ownedBy(session, req)) return reply.status(204).send();
    if (session) await endSession(ctx, req, session);
    reply.clearCookie(SESSION_COOKIE, COOKIE_OPTIONS);
    return reply.status(204).send();
  });
}

/** How long a sign-out waits for the upstream to revoke its token before it answers anyway. */
const REVOKE_TIMEOUT_MS = 3_000;

/**
 * Ends a session: the server session first (a sign-out never depends on the upstream), then,
 * best effort, the upstream token (DELETE /v1/me/token, the records service's extension), so a
 * token copied before the sign-out is refused after it. An upstream without the route (404, 405,
 * as the public service), one that does not answer in time, or a token already expired or
 * refused leaves nothing to do: the token then ends at its own expiry.
 */
async function endSession(
  ctx: BffContext,
  req: FastifyRequest,
  session: StoredSession,
): Promise<void> {
  await ctx.sessions.deleteByHash(session.idHash);
  if (session.tokenExpiresAt.getTime() <= ctx.now().getTime()) return;
  try {
    const res = await ctx.upstream.request({
      method: 'DELETE',
      path: '/v1/me/token',
      headers: { authorization: `Bearer ${session.token}`, accept: 'application/json' },
      timeoutMs: REVOKE_TIMEOUT_MS,
    });
    if (res.status >= 300) {
      req.log.info({ status: res.status }, 'the upstream did not revoke the token at sign-out');
    }
  } catch (err) {
    req.log.warn({ err }, 'revoking the upstream token at sign-out failed');
  }
}

/**
 * Who the token acts for: GET /v1/me where the upstream has it (a Trapline extension), else the
 * username and the first agency of the login answer (the public service's shape).
 */
async function identify(
  ctx: BffContext,
  username: string,
  login: { token: string; expires_at?: string; agencies?: Array<{ id: number; name: string }> },
): Promise<SessionInfo> {
  const me = await ctx.upstream.request({
    method: 'GET',
    path: '/v1/me',
    headers: { authorization: `Bearer ${login.token}`, accept: 'application/json' },
  });
  const fallbackExpiry = () =>
    login.expires_at && !Number.isNaN(Date.parse(login.expires_at))
      ? new Date(login.expires_at).toISOString()
      : new Date(ctx.now().getTime() + DEFAULT_TOKEN_LIFETIME_MS).toISOString();
  if (me.status === 200) {
    const who = whoAmI.safeParse(parseJson(me.body));
    if (who.success) {
      const exp = who.data.expires_at;
      return {
        user: who.data.user,
        agency: who.data.agency,
        expiresAt:
          exp && !Number.isNaN(Date.parse(exp)) ? new Date(exp).toISOString() : fallbackExpiry(),
      };
    }
  } else if (me.status >= 500) {
    throw upstreamFailed();
  }
  const agency = login.agencies?.[0];
  if (!agency) {
    throw upstreamFailed('The records service did not say which agency this account belongs to');
  }
  return { user: { id: null, username }, agency, expiresAt: fallbackExpiry() };
}

function upstreamFailed(
  message = 'The records service could not sign you in right now; try again shortly',
) {
  return new HttpError(502, 'upstream_unavailable', message);
}
