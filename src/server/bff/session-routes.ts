import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { loginRequest, loginResponse, whoAmI, type SessionInfo } from '#shared/schemas/auth';
import { z } from 'zod';
import { errorBody, fieldsFromZod, summarizeFields } from '#shared/schemas/error';
import { newPasswordProblem } from '#shared/schemas/people';
import { HttpError } from '../http/http-error';
import { parseJson } from './parse-json';
import type { BffContext } from './context';
import { LoginLimits, rateLimited } from '../http/login-limits';
import { currentSession, ownedBy, requireSession, sessionOf } from './require-session';
import { SESSION_COOKIE, type StoredSession } from './session-store';
import { withLiveToken } from './session-renewal';

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

  /**
   * Signs in upstream with the limits of contract §7: the granted login, or the contract's error
   * (a wrong password 401 invalid_credentials; an expired temporary one says so).
   */
  async function upstreamLogin(req: FastifyRequest, username: string, password: string) {
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
        if (upstreamCode(login.body) === 'temporary_password_expired') throw temporaryExpired();
        attempt.failed(now);
        throw new HttpError(401, 'invalid_credentials', 'Wrong username or password');
      }
    } finally {
      attempt.done();
    }
    const granted = loginResponse.safeParse(parseJson(login.body));
    if (!granted.success)
      throw upstreamFailed('The records service answered the sign-in with something unexpected');
    return granted.data;
  }

  /** A new session for a granted login: always a new id (no fixation); the previous one ends. */
  async function startSession(
    req: FastifyRequest,
    reply: FastifyReply,
    username: string,
    granted: { token: string; expires_at?: string; agencies?: Array<{ id: number; name: string }> },
  ): Promise<SessionInfo> {
    const info = await identify(ctx, username, granted);
    const previous = await currentSession(ctx, req);
    if (previous) await endSession(ctx, req, previous);
    const id = await ctx.sessions.create(granted.token, info);
    reply.setCookie(SESSION_COOKIE, id, COOKIE_OPTIONS);
    return info;
  }

  app.post('/api/session', async (req, reply) => {
    const { username, password } = readBody(loginRequest, req.body);
    const granted = await upstreamLogin(req, username, password);
    if (granted.password_change_required) {
      // No session for a temporary password: nothing of the tablet's (its queue) is sent or read
      // until the person has chosen their own, with POST /api/session/password.
      await revokeToken(ctx, req, granted.token);
      throw new HttpError(
        403,
        'password_change_required',
        'You signed in with a temporary password: choose your own password to go on',
      );
    }
    return startSession(req, reply, username, granted);
  });

  /**
   * The "choose your password" step of a first sign-in (or after a reset): signs in with the
   * temporary password, sets the new one upstream (POST /v1/me/password, which judges it: 422
   * with the field), and starts the session with that same token, usable in full from then on.
   * Works for any password, temporary or not. The BFF keeps neither password.
   */
  app.post('/api/session/password', async (req, reply) => {
    const { username, password, new_password } = readBody(choosePasswordRequest, req.body);
    const problem = newPasswordProblem(new_password, username);
    if (problem) {
      throw new HttpError(422, 'validation_failed', `new_password: ${problem}`, [
        { path: 'new_password', message: problem },
      ]);
    }
    const granted = await upstreamLogin(req, username, password);
    const changed = await ctx.upstream.request({
      method: 'POST',
      path: '/v1/me/password',
      headers: {
        authorization: `Bearer ${granted.token}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify({ current_password: password, new_password }),
    });
    if (changed.status !== 200) {
      await revokeToken(ctx, req, granted.token);
      const refused = errorBody.safeParse(parseJson(changed.body));
      if (changed.status === 422 && refused.success) {
        const fields = (refused.data.error.fields ?? []).map((f) =>
          f.path === 'current_password' ? { ...f, path: 'password' } : f,
        );
        throw new HttpError(422, 'validation_failed', refused.data.error.message, fields);
      }
      throw upstreamFailed('The records service could not set your password right now; try again');
    }
    return startSession(req, reply, username, granted);
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

/** A body read with `schema`, or the contract's 422 listing every failing field. */
function readBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) {
    const fields = fieldsFromZod(parsed.error);
    throw new HttpError(422, 'validation_failed', summarizeFields(fields), fields);
  }
  return parsed.data;
}

const choosePasswordRequest = loginRequest.extend({
  new_password: z.string().max(1000, { message: 'Use at most 1000 characters' }),
});

const upstreamCode = (body: string) => {
  const parsed = errorBody.safeParse(parseJson(body));
  return parsed.success ? parsed.data.error.code : undefined;
};

const temporaryExpired = () =>
  new HttpError(
    401,
    'temporary_password_expired',
    'This temporary password has expired (they last 7 days): ask a manager for a new one',
  );

/** Best effort: a token the BFF will not keep ends now rather than at its expiry. */
async function revokeToken(ctx: BffContext, req: FastifyRequest, token: string): Promise<void> {
  try {
    await ctx.upstream.request({
      method: 'DELETE',
      path: '/v1/me/token',
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      timeoutMs: REVOKE_TIMEOUT_MS,
    });
  } catch (err) {
    req.log.warn({ err }, 'revoking an unused upstream token failed');
  }
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
  // An expired token is not dead: the upstream still exchanges it within the renew window
  // (POST /login/renew), and DELETE /v1/me/token takes only a live one. Exchanged here once more
  // (the exchanged token is never exchanged again), the new one is revoked below: a copy of
  // either then renews nothing. Unrenewable (the public service, refused): it stays expired.
  const expired = (s: StoredSession) => s.tokenExpiresAt.getTime() <= ctx.now().getTime();
  const ending = expired(session) ? await withLiveToken(ctx, session, req.log) : session;
  if (expired(ending)) return;
  try {
    const res = await ctx.upstream.request({
      method: 'DELETE',
      path: '/v1/me/token',
      headers: { authorization: `Bearer ${ending.token}`, accept: 'application/json' },
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
