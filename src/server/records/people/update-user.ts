import type { UserRecord, UserUpdate } from '#shared/schemas/people';
import type { RecordsContext } from '../context';
import type { Caller } from '../auth/types';
import { notFound, validationFailed } from '../errors';
import { USER_SELECT, serializeUser, storedRole, type UserRow } from './user-rows';

/**
 * PUT /v1/user/{id}: full_name, role, active (contract §10).
 * Invariants, both checked under a lock on the agency's row, so two managers demoting each other
 * at once cannot both succeed and leave the agency with none:
 * - a manager never deactivates or demotes their own account (422 own_account);
 * - the agency keeps at least one active manager (422 last_manager).
 * Deactivation revokes the person's login tokens in the same transaction: their next request
 * is a 401, and reactivating them later brings no old sign-in back.
 */
export async function updateUser(
  ctx: RecordsContext,
  caller: Caller,
  userId: number,
  body: UserUpdate,
): Promise<UserRecord> {
  const now = ctx.now().toISOString();
  return ctx.db.transaction(async (tx) => {
    await tx.query('select id from agency where id = $1 for update', [caller.agencyId]);
    const found = await tx.query<UserRow>(
      `select ${USER_SELECT} from app_user u where u.id = $1 and u.agency = $2`,
      [userId, caller.agencyId],
    );
    const before = found.rows[0];
    if (!before) throw notFound('User');
    const demoted = body.role === 'user' && before.role === 'manager';
    const deactivated = body.active === false && before.active;
    if (caller.userId === userId && (demoted || deactivated)) {
      const path = deactivated ? 'active' : 'role';
      throw validationFailed(
        [{ path, message: 'You cannot deactivate or demote your own account' }],
        'own_account',
        'You cannot deactivate or demote your own account: ask another manager',
      );
    }
    if (before.role === 'manager' && before.active && (demoted || deactivated)) {
      const others = await tx.query<{ n: number }>(
        `select count(*)::int as n from app_user
          where agency = $1 and role = 'manager' and active and id <> $2`,
        [caller.agencyId, userId],
      );
      if (others.rows[0].n === 0) {
        throw validationFailed(
          [{ path: deactivated ? 'active' : 'role', message: 'The agency’s last active manager' }],
          'last_manager',
          'This is the agency’s last active manager: make someone else a manager first',
        );
      }
    }
    const { rows } = await tx.query<UserRow>(
      `update app_user u set name = coalesce($3, u.name), role = coalesce($4, u.role),
              active = coalesce($5, u.active), updated = $6
        where u.id = $1 and u.agency = $2
        returning ${USER_SELECT}`,
      [
        userId,
        caller.agencyId,
        body.full_name ?? null,
        body.role === undefined ? null : storedRole(body.role),
        body.active ?? null,
        now,
      ],
    );
    if (deactivated) {
      await tx.query(
        `update api_token set revoked_at = $2 where user_id = $1 and kind = 'login' and revoked_at is null`,
        [userId, now],
      );
    }
    return serializeUser(rows[0]);
  });
}
