import type { FastifyInstance } from 'fastify';
import type { RecordsContext } from '../../../context';
import { forbidden } from '../../../errors';
import { revokeLoginToken } from '../../../auth/tokens';
import { revokedOwnToken } from '../../../openapi/named-schemas';
import { answer, errorAnswers } from '../../../openapi/route-schemas';

const SIGN_OUT = {
  tags: ['auth'],
  description:
    'Signs out: revokes the login token sent with this request and the others of its sign-in ' +
    '(exchanged by POST /login/renew; a Trapline extension); ' +
    'the token then gets 401. Agency tokens are revoked with /v1/agency/token/{id} (403 here).',
  response: { 200: answer('Revoked', revokedOwnToken), ...errorAnswers('401', '403') },
};

/**
 * DELETE /v1/me/token (a Trapline extension, like GET /v1/me): signs out by revoking the login
 * token the request carries, and the tokens of the same sign-in it was exchanged from or for
 * (POST /login/renew); from then on they get 401 unauthenticated. Only this sign-in:
 * the same user's other sign-ins (other tablets) go on. The BFF calls it when a user signs out,
 * and treats its absence on another upstream (404, 405) as nothing to revoke.
 * Agency tokens are refused (403): they are revoked by id, by a manager, with
 * DELETE /v1/agency/token/{id}, so that a script cannot end its agency's token by a stray call.
 */
export default async function meTokenRoutes(
  app: FastifyInstance,
  ctx: RecordsContext,
): Promise<void> {
  app.delete('/v1/me/token', { schema: SIGN_OUT }, async (req) => {
    if (req.caller.tokenKind !== 'login') {
      throw forbidden(
        'This is an agency token: a manager revokes it with DELETE /v1/agency/token/{id}',
      );
    }
    await revokeLoginToken(ctx.db, req.caller.tokenId);
    return { revoked: true };
  });
}
