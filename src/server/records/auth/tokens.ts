import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/database';

/** 256 random bits, URL-safe. The clear token is shown once; only its sha256 is stored. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export type IssuedToken = { id: number; token: string };

/**
 * Issues a login token for a user, valid until `expiresAt`; `family` is the first token of the
 * sign-in when this one renews it (null for a sign-in with the password).
 */
export async function issueLoginToken(
  db: Queryable,
  user: { id: number; agency: number },
  expiresAt: Date,
  family: number | null = null,
): Promise<IssuedToken> {
  const token = generateToken();
  const { rows } = await db.query<{ id: number }>(
    `insert into api_token (agency, user_id, kind, token_hash, expires_at, family)
     values ($1, $2, 'login', $3, $4, $5) returning id`,
    [user.agency, user.id, hashToken(token), expiresAt.toISOString(), family],
  );
  return { id: rows[0].id, token };
}

/** Issues a long-lived agency token (manager rights, contract §7). */
export async function issueAgencyToken(
  db: Queryable,
  agencyId: number,
  createdBy: number | null,
): Promise<IssuedToken> {
  const token = generateToken();
  const { rows } = await db.query<{ id: number }>(
    `insert into api_token (agency, user_id, kind, token_hash) values ($1, $2, 'agency', $3) returning id`,
    [agencyId, createdBy, hashToken(token)],
  );
  return { id: rows[0].id, token };
}

/**
 * Revokes a login token and every token of its sign-in (a sign-out): the ones it was exchanged
 * from and for (POST /login/renew, `family`). A sign-out sent with a token just exchanged (still
 * answering for its minute) ends the new one too. Idempotent: a revoked token stays revoked.
 */
export async function revokeLoginToken(db: Queryable, tokenId: number): Promise<void> {
  await db.query(
    `update api_token t set revoked_at = now()
       from (select coalesce(family, id) as first from api_token where id = $1) s
      where t.kind = 'login' and t.revoked_at is null and (t.id = s.first or t.family = s.first)`,
    [tokenId],
  );
}

/**
 * Revokes an agency token of the given agency (any agency when `agencyId` is null, for the
 * command line). Returns false when no such active token exists.
 */
export async function revokeAgencyToken(
  db: Queryable,
  tokenId: number,
  agencyId: number | null,
): Promise<boolean> {
  const { rows } = await db.query(
    `update api_token set revoked_at = now()
      where id = $1 and kind = 'agency' and revoked_at is null and ($2::int is null or agency = $2::int)
      returning id`,
    [tokenId, agencyId],
  );
  return rows.length > 0;
}
