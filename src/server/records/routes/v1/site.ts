import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RecordsContext } from '../../context';
import { notFound } from '../../errors';
import { applyFields, parseListQuery, runList } from '../../list';
import { SITE_COLUMNS, type SiteRow } from '../../sites/site-row';
import { SITE_LIST } from '../../sites/site-list-spec';
import { findSite } from '../../sites/site-store';
import { createSite } from '../../sites/create-site';
import { updateSiteRecord } from '../../sites/update-site';
import { deleteSite } from '../../sites/delete-site';
import { siteRecords } from '../../sites/site-response';
import { createOnce } from '../../create-once';
import { ENTITY_ROUTES } from '../../openapi/route-schemas';

const SCHEMA = ENTITY_ROUTES.site;

/** /v1/site: create, list, get, partial update, delete (contract §6 Sites), with or without a trailing slash. */
export default async function siteRoutes(
  fastify: FastifyInstance,
  ctx: RecordsContext,
): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post('/v1/site', { schema: SCHEMA.create }, async (req, reply) => {
    const record = await createOnce(
      ctx.db,
      req,
      (db) => createSite(db, req.caller, req.body, ctx.now()),
      async (tx, row) => (await siteRecords(tx, [row]))[0],
    );
    return reply.status(201).send(record);
  });

  app.get('/v1/site', { schema: SCHEMA.list }, async (req) => {
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
  app.get('/v1/site/:id', { schema: SCHEMA.get }, async (req) => {
    const q = parseListQuery(req.url, SITE_LIST);
    const row = await findSite(ctx.db, req.caller.agencyId, req.params.id);
    if (!row) throw notFound('Site');
    return applyFields(await siteRecords(ctx.db, [row], q.populate), q.fields)[0];
  });

  app.put('/v1/site/:id', { schema: SCHEMA.update }, async (req) => {
    const row = await updateSiteRecord(ctx.db, req.caller, req.params.id, req.body, ctx.now());
    return (await siteRecords(ctx.db, [row]))[0];
  });

  app.delete('/v1/site/:id', { schema: SCHEMA.delete }, async (req) => {
    const row = await deleteSite(ctx.db, req.caller, req.params.id, ctx.now());
    return (await siteRecords(ctx.db, [row]))[0];
  });
}
