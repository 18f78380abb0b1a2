import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { passwordChange } from '#shared/schemas/people';
import type { RecordsContext } from '../../../context';
import { changeOwnPassword } from '../../../people/change-own-password';
import { passwordChanged } from '../../../openapi/named-schemas';
import { answer, errorAnswers } from '../../../openapi/route-schemas';

const CHANGE = {
  tags: ['people'],
  description:
    'Sets your own password (contract §10): at least 12 characters, not your username. The one ' +
    'route (with GET /v1/me and DELETE /v1/me/token) a token made with a temporary password may use.',
  body: passwordChange,
  response: {
    200: answer('Changed; your other sign-ins are ended', passwordChanged),
    ...errorAnswers('401', '403', '422'),
  },
};

/** POST /v1/me/password: any signed-in person, for themselves. */
export default async function mePasswordRoutes(
  fastify: FastifyInstance,
  ctx: RecordsContext,
): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post('/v1/me/password', { config: { idempotency: false }, schema: CHANGE }, async (req) => {
    await changeOwnPassword(ctx, req.caller, req.body);
    return { changed: true as const };
  });
}
