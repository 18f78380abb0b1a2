import type { AgencyTokenRecord } from '#shared/schemas/people';
import type { Queryable } from '../../db/database';

type Row = {
  id: number;
  created_at: Date | string;
  user_id: number | null;
  username: string | null;
  full_name: string | null;
};

/**
 * The agency's live (unrevoked) agency tokens, oldest first, with who made each. Only ids and
 * dates leave here: the clear token was shown once at creation, and the hash never leaves.
 */
export async function listAgencyTokens(
  db: Queryable,
  agencyId: number,
): Promise<{ rows: AgencyTokenRecord[]; count: number }> {
  const { rows } = await db.query<Row>(
    `select t.id, t.created_at, u.id as user_id, u.username, u.name as full_name
       from api_token t left join app_user u on u.id = t.user_id
      where t.agency = $1 and t.kind = 'agency' and t.revoked_at is null
      order by t.id`,
    [agencyId],
  );
  const records = rows.map((r) => ({
    id: r.id,
    created_at: new Date(r.created_at).toISOString(),
    created_by:
      r.user_id === null || r.username === null
        ? null
        : { id: r.user_id, username: r.username, full_name: r.full_name },
  }));
  return { rows: records, count: records.length };
}
