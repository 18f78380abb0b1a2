import { newPasswordProblem, type PasswordChange } from '#shared/schemas/people';
import type { FieldError } from '#shared/schemas/error';
import type { RecordsContext } from '../context';
import type { Caller } from '../auth/types';
import { forbidden, validationFailed } from '../errors';
import { hashPassword, verifyPassword } from '../auth/password';

/**
 * POST /v1/me/password: a signed-in person sets their own password. The new one is at least 12
 * characters, not the username, and not the current one (a temporary password must really be
 * replaced). It is no longer temporary afterwards, and the person's other sign-ins end; the
 * token of this request goes on.
 */
export async function changeOwnPassword(
  ctx: RecordsContext,
  caller: Caller,
  body: PasswordChange,
): Promise<void> {
  if (caller.userId === null)
    throw forbidden('An agency token has no password: sign in as a person to change yours');
  const { rows } = await ctx.db.query<{ username: string; password_hash: string }>(
    'select username, password_hash from app_user where id = $1',
    [caller.userId],
  );
  const user = rows[0];
  const fields: FieldError[] = [];
  if (!(await verifyPassword(body.current_password, user.password_hash)))
    fields.push({ path: 'current_password', message: 'This is not your current password' });
  const problem =
    newPasswordProblem(body.new_password, user.username) ??
    (body.new_password === body.current_password
      ? 'Choose a password different from the current one'
      : null);
  if (problem) fields.push({ path: 'new_password', message: problem });
  if (fields.length > 0) throw validationFailed(fields);
  const hash = await hashPassword(body.new_password);
  const now = ctx.now().toISOString();
  await ctx.db.transaction(async (tx) => {
    await tx.query(
      'update app_user set password_hash = $2, password_expires_at = null, updated = $3 where id = $1',
      [caller.userId, hash, now],
    );
    await tx.query(
      `update api_token set revoked_at = $3
        where user_id = $1 and id <> $2 and kind = 'login' and revoked_at is null`,
      [caller.userId, caller.tokenId, now],
    );
  });
}
