import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RecordsContext } from '../context';
import { HttpError } from '../../http/http-error';
import { parseBody } from '../errors';
import { loginRequest, loginResponse } from '#shared/schemas/auth';
import { errorBody } from '#shared/schemas/error';
import { answer, errorAnswers } from '../openapi/route-schemas';
import { dummyPasswordHash, verifyPassword } from '../auth/password';
import { issueLoginToken } from '../auth/tokens';
import { LoginLimits, type LoginAttempt } from '../../http/login-limits';

type UserRow = {
  id: number;
  agency: number;
  password_hash: string;
  agency_name: string;
  /** Set while the password is a temporary one (contract §10). */
  password_expires_at: Date | string | null;
};

const LOGIN = {
  tags: ['auth'],
  security: [],
  body: loginRequest.optional(),
  // The interface allows credentials as query parameters when there is no JSON body.
  querystring: z.object({
    username: z.string().optional(),
    password: z.string().optional(),
  }),
  response: {
    200: answer('A login token valid for one hour', loginResponse),
    401: answer('Wrong username or password (invalid_credentials)', errorBody),
    ...errorAnswers('422', '429'),
  },
};

/** POST /login → {token, expires_at, agencies} (contract §7). */
export default async function loginRoutes(
  fastify: FastifyInstance,
  ctx: RecordsContext,
): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limits = new LoginLimits(ctx.loginLimits);

  // Every attempt with a readable body counts against its address, an invalid one too: before
  // the route schema reads the credentials.
  const countAttempt = async (req: FastifyRequest) =>
    limits.attempt(req.socket?.remoteAddress ?? req.ip, ctx.now().getTime());

  app.post('/login', { schema: LOGIN, preValidation: countAttempt }, async (req, reply) => {
    const now = ctx.now();
    const { username, password } = req.body ?? parseBody(loginRequest, req.query);
    // Counted as a failure until the password is checked: a burst of attempts for one username
    // cannot all pass the limit before the first failure is counted.
    const attempt = limits.begin(username, now.getTime());
    try {
      return await signIn(username, password, now, attempt, reply);
    } finally {
      attempt.done();
    }
  });

  async function signIn(
    username: string,
    password: string,
    now: Date,
    attempt: LoginAttempt,
    reply: FastifyReply,
  ) {
    const { rows } = await ctx.db.query<UserRow>(
      `select u.id, u.agency, u.password_hash, a.name as agency_name, u.password_expires_at
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
      attempt.failed(now.getTime());
      throw new HttpError(401, 'invalid_credentials', 'Wrong username or password');
    }
    const temporary = user.password_expires_at !== null;
    // Told only to whoever typed the right temporary password: the manager must hand out a new one.
    if (temporary && new Date(user.password_expires_at!).getTime() <= now.getTime()) {
      throw new HttpError(
        401,
        'temporary_password_expired',
        'This temporary password has expired (they last 7 days): ask a manager for a new one',
      );
    }
    const expiresAt = new Date(now.getTime() + ctx.tokenTtlSeconds * 1000);
    const { token } = await issueLoginToken(ctx.db, user, expiresAt);
    await ctx.db.query('update app_user set last_login = $2 where id = $1', [
      user.id,
      now.toISOString(),
    ]);
    return reply.status(200).send({
      token,
      expires_at: expiresAt.toISOString(),
      agencies: [{ id: user.agency, name: user.agency_name }],
      // Only when true: the public service's answer has no such field.
      ...(temporary ? { password_change_required: true } : {}),
    });
  }
}
