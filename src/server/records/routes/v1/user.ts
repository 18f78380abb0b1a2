import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createdUser,
  temporaryPassword,
  userCreate,
  userRecord,
  userUpdate,
} from '#shared/schemas/people';
import type { RecordsContext } from '../../context';
import { forbidden } from '../../errors';
import { applyFields, parseListQuery, runList } from '../../list';
import { listQuerystring } from '../../list/list-querystring';
import { recordIdParams } from '../../../http/path-id';
import { userList } from '../../openapi/named-schemas';
import { answer, errorAnswers, LIST_QUERY } from '../../openapi/route-schemas';
import { USER_LIST, USER_SELECT, serializeUser, type UserRow } from '../../people/user-rows';
import { createUser } from '../../people/create-user';
import { updateUser } from '../../people/update-user';
import { resetPassword } from '../../people/reset-password';

const TAGS = ['people'];
const params = recordIdParams('User');
const LIST = {
  tags: TAGS,
  querystring: listQuerystring(LIST_QUERY.omit({ 'populate[]': true }), USER_LIST),
  response: { 200: answer('The agency’s people', userList), ...errorAnswers('401', '403', '422') },
};
const CREATE = {
  tags: TAGS,
  body: userCreate,
  response: {
    201: answer('The person, with a temporary password shown this once', createdUser),
    ...errorAnswers('401', '403', '409', '422'),
  },
};
const UPDATE = {
  tags: TAGS,
  params,
  body: userUpdate,
  response: {
    200: answer('The person as changed', userRecord),
    ...errorAnswers('401', '403', '404', '422'),
  },
};
const RESET = {
  tags: TAGS,
  params,
  response: {
    200: answer('A new temporary password, shown this once', temporaryPassword),
    ...errorAnswers('401', '403', '404'),
  },
};

/**
 * /v1/user (contract §10): the agency's people, for its managers (and agency tokens). A
 * technician gets 403 before anything of the request is read; another agency's user is a 404.
 * The answers holding a temporary password opt out of idempotency: a replay would have to keep
 * the clear password.
 */
export default async function userRoutes(
  fastify: FastifyInstance,
  ctx: RecordsContext,
): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const managersOnly = async (req: FastifyRequest) => {
    if (req.caller.role !== 'manager')
      throw forbidden('Only a manager of the agency can see and manage its people');
  };

  app.get('/v1/user', { schema: LIST, preValidation: managersOnly }, async (req) => {
    const q = parseListQuery(req.url, USER_LIST, { firstParam: 2 });
    const { rows, count } = await runList<UserRow>(
      ctx.db,
      {
        select: USER_SELECT,
        from: 'app_user u',
        where: 'u.agency = $1',
        params: [req.caller.agencyId],
      },
      q,
    );
    return { rows: applyFields(rows.map(serializeUser), q.fields), count };
  });

  app.post(
    '/v1/user',
    { config: { idempotency: false }, schema: CREATE, preValidation: managersOnly },
    async (req, reply) => reply.status(201).send(await createUser(ctx, req.caller, req.body)),
  );

  app.put('/v1/user/:id', { schema: UPDATE, preValidation: managersOnly }, async (req) =>
    updateUser(ctx, req.caller, req.params.id, req.body),
  );

  app.post(
    '/v1/user/:id/password',
    { config: { idempotency: false }, schema: RESET, preValidation: managersOnly },
    async (req) => resetPassword(ctx, req.caller, req.params.id),
  );
}
