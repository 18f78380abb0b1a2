import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../http/http-error';
import { loginResponse } from '#shared/schemas/auth';
import { errorBody } from '#shared/schemas/error';
import type { RecordsContext } from '../context';
import { bearerToken } from '../auth/authenticate';
import { hashToken, issueLoginToken } from '../auth/tokens';
import { answer } from '../openapi/route-schemas';

/** How long the token just exchanged still answers: the requests already sent with it finish. */
export const RENEWED_TOKEN_OVERLAP_MS = 60_000;

const RENEW = {
  tags: ['auth'],
  description:
    'Exchanges a login token (in Authorization: Bearer), live or expired within the renew window ' +
    '(a week by default), once, for a new one an hour ahead (a Trapline extension). The old token ' +
    'answers for one more minute. A token exchanged twice after that minute was copied: every ' +
    'token of its sign-in is revoked.',
  response: {
    200: answer('A new login token', loginResponse),
    401: answer(
      'unauthenticated (unknown, revoked, agency token or disabled account), ' +
        'token_expired (past the renew window), token_renewed (already exchanged) or ' +
        'temporary_password_expired (signed in with a temporary password, now expired)',
      errorBody,
    ),
  },
};

type TokenRow = {
  id: number;
  agency: number;
  user_id: number | null;
  kind: 'login' | 'agency';
  expires_at: Date | string | null;
  revoked: boolean;
  renewed_at: Date | string | null;
  family: number;
  user_active: boolean | null;
  /** Set while the person has a temporary password (contract §10): when it stops working. */
  password_expires_at: Date | string | null;
  agency_name: string;
};

const unauthenticated = () =>
  new HttpError(401, 'unauthenticated', 'The token is unknown, revoked or disabled; sign in again');

const temporaryPasswordExpired = () =>
  new HttpError(
    401,
    'temporary_password_expired',
    'This temporary password has expired (they last 7 days): ask a manager for a new one',
  );

type Outcome =
  | { ok: true; token: string; expiresAt: Date; agency: { id: number; name: string } }
  | { ok: false; error: HttpError };

/**
 * POST /login/renew: how the BFF keeps a tablet signed in past the login token's hour without
 * holding the password (issue 35: a technician signed in at 7 am was asked for the password at
 * 8, and after every night the server was off).
 *
 * Invariants:
 * - A token is exchanged at most once (`renewed_at`, read under a row lock). A second exchange
 *   within RENEWED_TOKEN_OVERLAP_MS is two BFF processes racing: refused (token_renewed) with
 *   nothing revoked, the loser reads the winner's token from the shared session table. Later, it
 *   is a copied token: every token of the sign-in (`family`) is revoked.
 * - Only login tokens of active users; never past `expires_at` + the renew window, nor past a
 *   temporary password's expiry. Deactivating a user or resetting their password (contract §10)
 *   ends their renewals with their sign-ins, even one under way at that moment (the lock order).
 * - The old token stops answering RENEWED_TOKEN_OVERLAP_MS after the exchange (or at its own
 *   expiry if sooner): the chain has one usable token plus the one being replaced.
 */
export default async function loginRenewRoutes(
  app: FastifyInstance,
  ctx: RecordsContext,
): Promise<void> {
  app.post('/login/renew', { schema: RENEW }, async (req, reply) => {
    const presented = bearerToken(req);
    if (!presented) throw unauthenticated();
    const now = ctx.now();
    const outcome = await ctx.db.transaction(async (tx): Promise<Outcome> => {
      const hash = hashToken(presented);
      const { rows: keys } = await tx.query<{ agency: number; user_id: number | null }>(
        'select agency, user_id from api_token where token_hash = $1',
        [hash],
      );
      if (!keys[0]) return { ok: false, error: unauthenticated() };
      // Locks taken in the order of every change to a person (agency, person, then their
      // tokens: update-user.ts, reset-password.ts, change-own-password.ts). A deactivation or a
      // password reset under way is waited for, and one that starts now waits for this
      // exchange, so its revocation sees the token made here. Locking the token first let a
      // reset's revocation miss that token on PostgreSQL, and deadlocked with a deactivation
      // (the new token's agency key against the deactivation's lock of the agency).
      await tx.query('select id from agency where id = $1 for key share', [keys[0].agency]);
      if (keys[0].user_id !== null)
        await tx.query('select id from app_user where id = $1 for share', [keys[0].user_id]);
      // Read again after the waits (READ COMMITTED: a new snapshot): what they committed counts.
      const { rows } = await tx.query<TokenRow>(
        `select t.id, t.agency, t.user_id, t.kind, t.expires_at, t.revoked_at is not null as revoked,
                t.renewed_at, coalesce(t.family, t.id) as family, u.active as user_active,
                u.password_expires_at, a.name as agency_name
           from api_token t
           join agency a on a.id = t.agency
           left join app_user u on u.id = t.user_id
          where t.token_hash = $1
          for update of t`,
        [hash],
      );
      const row = rows[0];
      if (!row || row.revoked || row.kind !== 'login' || row.user_id === null || !row.user_active)
        return { ok: false, error: unauthenticated() };
      if (row.renewed_at !== null) {
        const since = now.getTime() - new Date(row.renewed_at).getTime();
        if (since > RENEWED_TOKEN_OVERLAP_MS) {
          await tx.query(
            `update api_token set revoked_at = $2
              where (id = $1 or family = $1) and revoked_at is null`,
            [row.family, now],
          );
        }
        return {
          ok: false,
          error: new HttpError(401, 'token_renewed', 'This sign-in was renewed already'),
        };
      }
      // A temporary password's sign-in can only choose a password (with that temporary
      // password): it ends with the temporary password, as POST /login then refuses it.
      if (
        row.password_expires_at !== null &&
        new Date(row.password_expires_at).getTime() <= now.getTime()
      )
        return { ok: false, error: temporaryPasswordExpired() };
      const expiredAt = row.expires_at === null ? null : new Date(row.expires_at).getTime();
      if (expiredAt !== null && now.getTime() - expiredAt > ctx.renewWindowSeconds * 1000)
        return {
          ok: false,
          error: new HttpError(401, 'token_expired', 'The sign-in has expired; sign in again'),
        };
      await tx.query(
        `update api_token set renewed_at = $2, expires_at = least(expires_at, $3) where id = $1`,
        [row.id, now, new Date(now.getTime() + RENEWED_TOKEN_OVERLAP_MS)],
      );
      const expiresAt = new Date(now.getTime() + ctx.tokenTtlSeconds * 1000);
      const issued = await issueLoginToken(
        tx,
        { id: row.user_id, agency: row.agency },
        expiresAt,
        row.family,
      );
      return {
        ok: true,
        token: issued.token,
        expiresAt,
        agency: { id: row.agency, name: row.agency_name },
      };
    });
    // Thrown after the transaction: the revocation of a copied token's sign-in is committed.
    if (!outcome.ok) throw outcome.error;
    return reply.status(200).send({
      token: outcome.token,
      expires_at: outcome.expiresAt.toISOString(),
      agencies: [outcome.agency],
    });
  });
}
