import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RecordsContext } from '../../context';
import { applyFields, parseListQuery, runList } from '../../list';
import { SITE_COLUMNS, type SiteRow } from '../../sites/site-row';
import { SITE_LIST } from '../../sites/site-list-spec';
import { findSite } from '../../sites/site-store';
import { createSite } from '../../sites/create-site';
import { updateSiteRecord } from '../../sites/update-site';
import { deleteSite } from '../../sites/delete-site';
import { siteRecords } from '../../sites/site-response';
import { createOnce } from '../../create-once';
import { answer, errorAnswers } from '../../openapi/route-schemas';
import { entityResource, registerEntityResource } from '../../entity-resource';
import { forbidden } from '../../errors';
import { writeSiteBatch } from '../../sites/site-batch';
import {
  MAX_SITE_BATCH,
  SITE_BATCH_BODY_LIMIT,
  SITE_BATCH_PATH,
  siteBatch,
  siteBatchAnswer,
} from '#shared/schemas/site-batch';

const BATCH_SCHEMA = {
  tags: ['site'],
  summary: 'Create and update many sites in one transaction (Trapline extension)',
  description:
    `Up to ${MAX_SITE_BATCH} items, each a create (the body of POST /v1/site) or an update (id and ` +
    'the body of PUT /v1/site/{id}), checked with the same rules and written in one transaction ' +
    'with their history rows. Managers only. Any bad item: 422 listing `items.<index>.<field>` ' +
    'and nothing written. A code or an id may appear once per batch. Honours Idempotency-Key.',
  body: siteBatch,
  response: {
    201: answer('One result per item, in the order sent', siteBatchAnswer),
    ...errorAnswers('401', '403', '409', '413', '415', '422'),
  },
};

/** /v1/site: create, list, get, partial update, delete (contract §6 Sites), with or without a trailing slash. */
export default async function siteRoutes(
  fastify: FastifyInstance,
  ctx: RecordsContext,
): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  registerEntityResource(app, entityResource('site'), {
    list: async (req) => {
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
    },
    get: async (id, populate, req) => {
      const row = await findSite(ctx.db, req.caller.agencyId, id);
      return row && (await siteRecords(ctx.db, [row], populate))[0];
    },
    create: async (body, req) =>
      createOnce(
        ctx.db,
        req,
        (db) => createSite(db, req.caller, body, ctx.now()),
        async (tx, row) => (await siteRecords(tx, [row]))[0],
      ),
    update: async (id, body, req) => {
      const row = await updateSiteRecord(ctx.db, req.caller, id, body, ctx.now());
      return (await siteRecords(ctx.db, [row]))[0];
    },
    delete: async (id, req) => {
      const row = await deleteSite(ctx.db, req.caller, id, ctx.now());
      return (await siteRecords(ctx.db, [row]))[0];
    },
  });

  // A Trapline extension (README "Contract notes"): the BFF's site import, many sites per request.
  app.post(
    SITE_BATCH_PATH,
    {
      schema: BATCH_SCHEMA,
      bodyLimit: SITE_BATCH_BODY_LIMIT,
      // Before the body is read with its schema: a technician learns 403, not what was wrong in it.
      preValidation: async (req) => {
        if (req.caller.role !== 'manager')
          throw forbidden('Only a manager can write sites in a batch');
      },
    },
    async (req, reply) => {
      const results = await createOnce(
        ctx.db,
        req,
        (db) => db.transaction((tx) => writeSiteBatch(tx, req.caller, req.body.items, ctx.now())),
        async (_tx, results) => ({ results }),
      );
      return reply.status(201).send(results);
    },
  );
}
