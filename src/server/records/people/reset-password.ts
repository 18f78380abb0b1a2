import type { RecordsContext } from '../context';
import type { Caller } from '../auth/types';
import { notFound } from '../errors';
import { hashPassword } from '../auth/password';
import { generateTemporaryPassword, temporaryPasswordExpiry } from './temporary-password';

/**
 * POST /v1/user/{id}/password: a new temporary password for a person of the caller's agency
 * (same rules as at creation). Their sign-ins end: whoever holds the old password or a token
 * made with it is out, and the person signs in with the temporary one and chooses a new one.
 */
export async function resetPassword(
  ctx: RecordsContext,
  caller: Caller,
  userId: number,
): Promise<{ temporary_password: string }> {
  const now = ctx.now();
  const temporary = generateTemporaryPassword();
  const hash = await hashPassword(temporary);
  return ctx.db.transaction(async (tx) => {
    const { rows } = await tx.query(
      `update app_user set password_hash = $3, password_expires_at = $4, updated = $5
        where id = $1 and agency = $2 returning id`,
      [
        userId,
        caller.agencyId,
        hash,
        temporaryPasswordExpiry(now).toISOString(),
        now.toISOString(),
      ],
    );
    if (rows.length === 0) throw notFound('User');
    await tx.query(
      `update api_token set revoked_at = $2 where user_id = $1 and kind = 'login' and revoked_at is null`,
      [userId, now.toISOString()],
    );
    return { temporary_password: temporary };
  });
}
