import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RecordsContext } from '../context';
import { HttpError } from '../../http/http-error';
import { parseBody } from '../errors';
import { loginRequest } from '#shared/schemas/auth';
import { dummyPasswordHash, verifyPassword } from '../auth/password';
import { issueLoginToken } from '../auth/tokens';
import { LoginLimits } from '../../http/login-limits';

type UserRow = { id: number; agency: number; password_hash: string; agency_name: string };

/** The interface allows credentials as a JSON body or as query parameters. */
function credentialsOf(req: FastifyRequest): unknown {
  if (req.body !== undefined && req.body !== null) return req.body;
  const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(query);
  } catch {
    throw new HttpError(400, 'bad_request', 'The query string is malformed');
  }
  const out: Record<string, string> = {};
  for (const [k, v] of params) out[k] = v;
  return out;
}

/** POST /login → {token, expires_at, agencies} (contract §7). */
export default async function loginRoutes(
  app: FastifyInstance,
  ctx: RecordsContext,
): Promise<void> {
  const limits = new LoginLimits(ctx.loginLimits);

  app.post('/login', async (req, reply) => {
    const now = ctx.now();
    limits.attempt(req.socket?.remoteAddress ?? req.ip, now.getTime());
    const { username, password } = parseBody(loginRequest, credentialsOf(req));
    limits.checkUser(username, now.getTime());

    const { rows } = await ctx.db.query<UserRow>(
      `select u.id, u.agency, u.password_hash, a.name as agency_name
         from app_user u join agency a on a.id = u.agency
        where lower(u.username) = lower($1) and u.active
        order by (u.username = $1) desc, u.id
        limit 1`,
      [username],
    );
    const user = rows[0];
    // Unknown users still cost one scrypt, so timing does not reveal which usernames exist.
    const ok = await verifyPassword(password, user?.password_hash ?? (await dummyPasswordHash()));
    if (!user || !ok) {
      limits.failed(username, now.getTime());
      throw new HttpError(401, 'invalid_credentials', 'Wrong username or password');
    }
    const expiresAt = new Date(now.getTime() + ctx.tokenTtlSeconds * 1000);
    const { token } = await issueLoginToken(ctx.db, user, expiresAt);
    return reply.status(200).send({
      token,
      expires_at: expiresAt.toISOString(),
      agencies: [{ id: user.agency, name: user.agency_name }],
    });
  });
}
