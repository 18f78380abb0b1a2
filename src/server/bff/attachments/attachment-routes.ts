import type { FastifyInstance } from 'fastify';
import { attachmentListQuery } from '#shared/schemas/attachment';
import { MAX_STORED_INT } from '#shared/schemas/common';
import { fieldsFromZod } from '#shared/schemas/error';
import { HttpError } from '../../http/http-error';
import { isPathId } from '../../http/path-id';
import type { BffContext } from '../context';
import { requireSession, sessionOf } from '../require-session';
import { AttachmentRows, toAttachment } from './attachment-rows';

export const ATTACHMENTS_PATH = '/api/attachments';

const isStoredId = (id: string) => isPathId(id) && Number(id) <= MAX_STORED_INT;

const notFound = () =>
  new HttpError(404, 'not_found', 'This photo is not there (deleted, or not of your agency)');

/**
 * The stored photos (contract §13), of the user's agency only: another agency's photo is "not
 * found", never "forbidden", as its records are. A delete is allowed to the photo's author and
 * to the agency's managers.
 */
export async function attachmentRoutes(app: FastifyInstance, ctx: BffContext): Promise<void> {
  const rows = new AttachmentRows(ctx.db);
  const guard = { onRequest: [requireSession(ctx)] };

  app.get(ATTACHMENTS_PATH, guard, async (req) => {
    const session = sessionOf(req);
    const query = attachmentListQuery.safeParse(req.query ?? {});
    if (!query.success) {
      const fields = fieldsFromZod(query.error, req.query);
      throw new HttpError(
        422,
        'validation_failed',
        'Name the record: entity=site|collection|pool and record=<its id>',
        fields,
      );
    }
    const list = await rows.list(
      session.info.agency.id,
      query.data.entity,
      Number(query.data.record),
    );
    return { rows: list.map(toAttachment) };
  });

  app.get(`${ATTACHMENTS_PATH}/:id`, guard, async (req, reply) => {
    const session = sessionOf(req);
    const { id } = req.params as { id: string };
    if (!isStoredId(id)) throw notFound();
    const row = await rows.byId(session.info.agency.id, Number(id));
    if (!row) throw notFound();
    const data = await rows.data(row.id);
    // A photo never changes under its id: the tablet may keep it.
    reply.header('cache-control', 'private, max-age=31536000, immutable');
    reply.header('content-type', row.contentType);
    reply.header('x-content-type-options', 'nosniff');
    reply.header(
      'content-disposition',
      `inline; filename*=UTF-8''${encodeURIComponent(row.filename)}`,
    );
    return reply.send(data);
  });

  app.delete(`${ATTACHMENTS_PATH}/:id`, guard, async (req, reply) => {
    const session = sessionOf(req);
    const { id } = req.params as { id: string };
    if (!isStoredId(id)) throw notFound();
    const row = await rows.byId(session.info.agency.id, Number(id));
    if (!row) throw notFound();
    const author = row.username === session.info.user.username;
    if (!author && session.info.user.role !== 'manager') {
      throw new HttpError(
        403,
        'forbidden',
        `Only ${row.username}, who took this photo, or a manager can delete it`,
      );
    }
    await rows.remove(row.id);
    return reply.status(204).send();
  });
}
