import type { FastifyRequest } from 'fastify';
import { OWNER_HEADER, ownerHeaderValue } from '#shared/schemas/auth';
import { otherUserSignedIn, reauthRequired, unauthenticated } from './session-errors';
import type { BffContext } from './context';
import { SESSION_COOKIE, type StoredSession } from './session-store';
import { withLiveToken } from './session-renewal';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in session, set by `requireSession`. */
    bffSession?: StoredSession;
  }
}

/**
 * preHandler for every /api route that acts for a user: no cookie or an unknown / ended session →
 * 401 unauthenticated; a session whose upstream token is due is renewed first (session-renewal);
 * a known session whose upstream token has expired and could not be renewed → 401 reauth_required
 * (the app keeps its queue and asks for the password again); a request naming another user than
 * the session's (OWNER_HEADER) → 401 reauth_required too. A request without the header (a
 * script, an older app) acts for the session's user.
 */
export function requireSession(ctx: BffContext) {
  return async (req: FastifyRequest) => {
    const found = await currentSession(ctx, req);
    if (!found) throw unauthenticated();
    if (!ownedBy(found, req)) throw otherUserSignedIn();
    const session = await withLiveToken(ctx, found, req.log);
    if (session.tokenExpiresAt.getTime() <= ctx.now().getTime()) throw reauthRequired();
    req.bffSession = session;
  };
}

/**
 * Whether the request acts for the session's user: it names no user (OWNER_HEADER; a script, an
 * older app) or names that one.
 */
export function ownedBy(session: StoredSession, req: FastifyRequest): boolean {
  const owner = req.headers[OWNER_HEADER];
  return owner === undefined || owner === sessionOwner(session);
}

const sessionOwner = (session: StoredSession) =>
  ownerHeaderValue({ agencyId: session.info.agency.id, username: session.info.user.username });

export async function currentSession(
  ctx: BffContext,
  req: FastifyRequest,
): Promise<StoredSession | null> {
  const id = req.cookies[SESSION_COOKIE];
  if (!id || id.length > 200) return null;
  return ctx.sessions.find(id, ctx.now());
}

export function sessionOf(req: FastifyRequest): StoredSession {
  if (!req.bffSession) throw unauthenticated();
  return req.bffSession;
}
