import type { CreatedUser, UserCreate } from '#shared/schemas/people';
import { HttpError } from '../../http/http-error';
import type { RecordsContext } from '../context';
import type { Caller } from '../auth/types';
import { hashPassword } from '../auth/password';
import { generateTemporaryPassword, temporaryPasswordExpiry } from './temporary-password';
import { USER_SELECT, serializeUser, storedRole, type UserRow } from './user-rows';

export const usernameTaken = (username: string) =>
  new HttpError(
    409,
    'username_taken',
    `The username ${username} is already used (usernames ignore upper and lower case): choose another`,
    [{ path: 'username', message: 'Already used: choose another' }],
  );

/**
 * POST /v1/user: a new person of the caller's agency with a temporary password, answered this
 * once (only its hash is kept). Usernames are unique in the whole service, ignoring case: the
 * unique index on lower(username) decides, so two managers adding the same name at once get one
 * account and one 409.
 */
export async function createUser(
  ctx: RecordsContext,
  caller: Caller,
  body: UserCreate,
): Promise<CreatedUser> {
  const now = ctx.now();
  const temporary = generateTemporaryPassword();
  const hash = await hashPassword(temporary);
  const { rows } = await ctx.db.query<UserRow>(
    `insert into app_user as u (agency, username, name, role, password_hash, password_expires_at, add_date, updated)
     values ($1, $2, $3, $4, $5, $6, $7, $7)
     on conflict do nothing
     returning ${USER_SELECT}`,
    [
      caller.agencyId,
      body.username,
      body.full_name,
      storedRole(body.role),
      hash,
      temporaryPasswordExpiry(now).toISOString(),
      now.toISOString(),
    ],
  );
  if (rows.length === 0) throw usernameTaken(body.username);
  return { ...serializeUser(rows[0]), temporary_password: temporary };
}
