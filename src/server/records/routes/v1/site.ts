import type { FastifyInstance } from 'fastify';
import type { RecordsContext } from '../../context';
import { notFound, parseBody } from '../../errors';
import { parsePathId } from '../../../http/path-id';
import { siteCreate, siteUpdate } from '#shared/schemas/site';
import { applyFields, parseListQuery, runList } from '../../list';
import { SITE_COLUMNS, type SiteRow } from '../../sites/site-row';
import { SITE_LIST } from '../../sites/site-list-spec';
import { findSite } from '../../sites/site-store';
import { createSite } from '../../sites/create-site';
import { updateSiteRecord } from '../../sites/update-site';
import { deleteSite } from '../../sites/delete-site';
import { siteRecords } from '../../sites/site-response';
import { putBody } from '../../put-body';
import { createOnce } from '../../create-once';

/** /v1/site: create, list, get, partial update, delete (contract §6 Sites), with or without a trailing slash. */
export default async function siteRoutes(app: FastifyInstance, ctx: RecordsContext): Promise<void> {
  app.post('/v1/site', async (req, reply) => {
    const body = parseBody(siteCreate, req.body);
    const record = await createOnce(
      ctx.db,
      req,
      (db) => createSite(db, req.caller, body, ctx.now()),
      async (tx, row) => (await siteRecords(tx, [row]))[0],
    );
    return reply.status(201).send(record);
  });

  app.get('/v1/site', async (req) => {
    const q = parseListQuery(req.url, SITE_LIST, { firstParam: 2 });
    const { rows, count } = await runList<SiteRow>(
      ctx.db,
      {
        select: SITE_COLUMNS,
        from: 'site s',
        where: 's.agency = $1 and s.delete_date is null',
        params: [req.caller.agencyId],
      },
      q,
    );
    return { rows: applyFields(await siteRecords(ctx.db, rows, q.populate), q.fields), count };
  });

  // populate[] and fields[] as on the list (contract §4), like every other record's GET.
  app.get<{ Params: { id: string } }>('/v1/site/:id', async (req) => {
    const id = parsePathId(req.params.id, 'Site');
    const q = parseListQuery(req.url, SITE_LIST);
    const row = await findSite(ctx.db, req.caller.agencyId, id);
    if (!row) throw notFound('Site');
    return applyFields(await siteRecords(ctx.db, [row], q.populate), q.fields)[0];
  });

  app.put<{ Params: { id: string } }>('/v1/site/:id', async (req) => {
    const id = parsePathId(req.params.id, 'Site');
    const row = await updateSiteRecord(
      ctx.db,
      req.caller,
      id,
      parseBody(siteUpdate, putBody('site', req.body)),
      ctx.now(),
    );
    return (await siteRecords(ctx.db, [row]))[0];
  });

  app.delete<{ Params: { id: string } }>('/v1/site/:id', async (req) => {
    const row = await deleteSite(ctx.db, req.caller, parsePathId(req.params.id, 'Site'), ctx.now());
    return (await siteRecords(ctx.db, [row]))[0];
  });
}
