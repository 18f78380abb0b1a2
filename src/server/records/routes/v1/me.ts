import type { FastifyInstance } from 'fastify';
import type { RecordsContext } from '../../context';
import { whoAmI, type Role, type WhoAmI } from '#shared/schemas/auth';
import { answer, errorAnswers } from '../../openapi/route-schemas';

const WHO_AM_I = {
  tags: ['auth'],
  response: { 200: answer('Who the token acts for', whoAmI), ...errorAnswers('401') },
};

type MeRow = {
  user_id: number | null;
  username: string | null;
  name: string | null;
  role: Role | null;
  agency_id: number;
  agency_name: string;
  expires_at: Date | string | null;
};

/** GET /v1/me: who the token acts for (a Trapline extension the BFF reads after sign-in). */
export default async function meRoutes(app: FastifyInstance, ctx: RecordsContext): Promise<void> {
  app.get('/v1/me', { schema: WHO_AM_I }, async (req): Promise<WhoAmI> => {
    const { rows } = await ctx.db.query<MeRow>(
      `select u.id as user_id, u.username, u.name, u.role, a.id as agency_id, a.name as agency_name, t.expires_at
         from api_token t join agency a on a.id = t.agency left join app_user u on u.id = t.user_id
        where t.id = $1`,
      [req.caller.tokenId],
    );
    const row = rows[0];
    const agency = { id: row.agency_id, name: row.agency_name };
    const expires_at = row.expires_at === null ? null : new Date(row.expires_at).toISOString();
    if (req.caller.tokenKind === 'agency') {
      return {
        user: {
          id: null,
          username: `agency-token-${req.caller.tokenId}`,
          name: `${row.agency_name} (agency token)`,
          role: 'manager',
        },
        agency,
        expires_at,
      };
    }
    return {
      user: {
        id: row.user_id,
        username: row.username ?? '',
        name: row.name,
        role: row.role ?? 'technician',
      },
      agency,
      expires_at,
    };
  });
}
