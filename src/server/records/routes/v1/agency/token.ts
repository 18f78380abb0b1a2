import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RecordsContext } from '../../../context';
import { forbidden, notFound, validationFailed } from '../../../errors';
import { issueAgencyToken, revokeAgencyToken } from '../../../auth/tokens';
import type { Caller } from '../../../auth/types';
import { recordIdParams } from '../../../../http/path-id';
import {
  agencyTokenList,
  issuedAgencyToken,
  revokedAgencyToken,
} from '../../../openapi/named-schemas';
import { listAgencyTokens } from '../../../auth/list-agency-tokens';
import { answer, errorAnswers } from '../../../openapi/route-schemas';

const ISSUE = {
  tags: ['auth'],
  response: {
    201: answer('{id, token}: the token is shown once', issuedAgencyToken),
    ...errorAnswers('401', '403', '422'),
  },
};
const LIST = {
  tags: ['auth'],
  description: 'The agency’s live agency tokens: who made each and when; never a token or its hash',
  response: { 200: answer('Live agency tokens', agencyTokenList), ...errorAnswers('401', '403') },
};
const REVOKE = {
  tags: ['auth'],
  params: recordIdParams('Agency token'),
  response: { 200: answer('Revoked', revokedAgencyToken), ...errorAnswers('401', '403', '404') },
};

function requireManager(caller: Caller): void {
  if (caller.role !== 'manager')
    throw forbidden('Only a manager of the agency can manage agency tokens');
}

/**
 * POST /v1/agency/token → 201 {id, token} (the token is shown this once; only its hash is kept);
 * GET /v1/agency/token lists the live ones (never a token or its hash);
 * DELETE /v1/agency/token/{id} revokes it. Managers (and agency tokens) only (contract §7).
 */
export default async function agencyTokenRoutes(
  fastify: FastifyInstance,
  ctx: RecordsContext,
): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Managers only, judged before anything else of the request: a technician learns nothing from
  // a path (like every other {id} path, a non-id names no token, 404, but only for a manager).
  const managersOnly = async (req: FastifyRequest) => requireManager(req.caller);
  // A replayed answer would have to store the clear token: this route opts out of idempotency.
  app.post(
    '/v1/agency/token',
    { config: { idempotency: false }, schema: ISSUE, preValidation: managersOnly },
    async (req, reply) => {
      if (req.body !== undefined && req.body !== null) {
        const body = req.body;
        if (typeof body !== 'object' || Array.isArray(body) || Object.keys(body).length > 0) {
          throw validationFailed([
            { path: '(body)', message: 'Send no body, or an empty JSON object' },
          ]);
        }
      }
      const issued = await issueAgencyToken(ctx.db, req.caller.agencyId, req.caller.userId);
      return reply.status(201).send({ id: issued.id, token: issued.token });
    },
  );

  app.get('/v1/agency/token', { schema: LIST, preValidation: managersOnly }, async (req) =>
    listAgencyTokens(ctx.db, req.caller.agencyId),
  );

  app.delete(
    '/v1/agency/token/:id',
    { schema: REVOKE, preValidation: managersOnly },
    async (req) => {
      const { id } = req.params;
      if (!(await revokeAgencyToken(ctx.db, id, req.caller.agencyId)))
        throw notFound('Agency token');
      return { id, revoked: true };
    },
  );
}
