import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { RecordsContext } from '../context';
import { HttpError } from '../../http/http-error';
import type { Role } from '#shared/schemas/auth';
import type { Caller } from './types';
import { hashToken } from './tokens';

/** True for `/v1` and everything under it: those paths require a token (contract §8). */
export function isVersionedPath(url: string): boolean {
  const path = url.split('?')[0];
  return path === '/v1' || path.startsWith('/v1/');
}

/** The path of a URL as the router reads it (percent-decoded); the raw path if it cannot be. */
function decodedPath(url: string): string {
  const path = url.split('?', 1)[0];
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

const unauthenticated = (message: string) => new HttpError(401, 'unauthenticated', message);

type TokenRow = {
  id: number;
  agency: number;
  user_id: number | null;
  kind: 'login' | 'agency';
  /** Whether it expired at or before the service's clock (`ctx.now`); null: it never expires. */
  expired: boolean | null;
  revoked: boolean;
  role: Role | null;
  user_active: boolean | null;
  must_change: boolean | null;
};

/** Finds who a bearer token acts for, or throws the contract's 401. */
export async function callerForToken(ctx: RecordsContext, token: string): Promise<Caller> {
  // Compared in SQL against the service's clock: the two timestamps are then never parsed into
  // Dates on every request (a /v1 request's first statement, issue 13).
  const { rows } = await ctx.db.query<TokenRow>(
    `select t.id, t.agency, t.user_id, t.kind, t.expires_at <= $2 as expired,
            t.revoked_at is not null as revoked, u.role, u.active as user_active,
            u.password_expires_at is not null as must_change
       from api_token t left join app_user u on u.id = t.user_id
      where t.token_hash = $1`,
    [hashToken(token), ctx.now()],
  );
  const row = rows[0];
  if (!row || row.revoked) throw unauthenticated('The token is unknown or revoked; sign in again');
  if (row.kind === 'login') {
    if (row.user_id === null || row.user_active !== true)
      throw unauthenticated('The account of this token is disabled');
    if (row.expired) {
      throw new HttpError(401, 'token_expired', 'The sign-in has expired; sign in again');
    }
    return {
      agencyId: row.agency,
      userId: row.user_id,
      role: row.role ?? 'technician',
      tokenKind: 'login',
      tokenId: row.id,
      passwordChangeRequired: row.must_change === true,
    };
  }
  // Agency tokens act for the agency with manager rights, not as the user who made them.
  return {
    agencyId: row.agency,
    userId: null,
    role: 'manager',
    tokenKind: 'agency',
    tokenId: row.id,
    passwordChangeRequired: false,
  };
}

/**
 * What a token made with a temporary password may do (contract §10): choose the password, say
 * who it is, sign out. Judged on the matched route pattern, like authentication itself.
 */
const TEMPORARY_SIGN_IN_ROUTES = new Set([
  'POST /v1/me/password',
  'GET /v1/me',
  'DELETE /v1/me/token',
]);

function servesTemporarySignIn(req: FastifyRequest): boolean {
  return TEMPORARY_SIGN_IN_ROUTES.has(`${req.method} ${req.routeOptions.url ?? ''}`);
}

const passwordChangeRequired = () =>
  new HttpError(
    403,
    'password_change_required',
    'You signed in with a temporary password: choose your own with POST /v1/me/password first',
  );

export function bearerToken(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

/**
 * onRequest hook: every `/v1` request carries a valid bearer token; sets `request.caller`.
 * Decided on the path the router matched (its route pattern), never on the raw URL, which may
 * spell the same route another way; a path no route matched is judged decoded, so an unknown
 * `/v1/...` path is a 401 too (contract §8), never a 404 that tells what exists.
 */
export function authenticate(ctx: RecordsContext): onRequestAsyncHookHandler {
  return async (req) => {
    if (!isVersionedPath(req.routeOptions.url ?? decodedPath(req.url))) return;
    const token = bearerToken(req);
    if (!token) throw unauthenticated('Send Authorization: Bearer <token> (POST /login gives one)');
    req.caller = await callerForToken(ctx, token);
    if (req.caller.passwordChangeRequired && !servesTemporarySignIn(req))
      throw passwordChangeRequired();
  };
}
