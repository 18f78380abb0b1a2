import type { FastifyInstance } from 'fastify';
import type { RecordsContext } from '../../context';
import { ApiError, forbidden, notFound, parseBody, validationFailed } from '../../errors';
import { siteCreate, siteUpdate, ZERO_SITE_CODE } from '../../../../shared/schemas/site';
import { canUpdate, type Caller } from '../../auth/types';
import {
  applyFields,
  parseListQuery,
  parseQueryString,
  runList,
  valuesOf,
  withIdFirst,
} from '../../list';
import { SITE_COLUMNS, type SiteRow } from '../../sites/site-row';
import { serializeSite } from '../../sites/serialize-site';
import { populateSites, SITE_POPULATE } from '../../sites/populate-sites';
import { SITE_LIST } from '../../sites/site-list-spec';
import { siteColumns } from '../../sites/site-columns';
import {
  findSite,
  insertSite,
  lockSiteCode,
  markSiteDeleted,
  updateSite,
} from '../../sites/site-store';
import {
  agencyRegion,
  assertCodeFree,
  checkSiteDates,
  checkSiteLookups,
} from '../../sites/site-rules';
import { isoOrNull } from '../../sites/serialize-site';
import type { Queryable } from '../../../db/database';

/** Record ids in paths: a positive integer, else the record cannot exist (404). */
export function pathId(raw: string): number {
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) throw notFound('Site');
  return Number(raw);
}

function assertOwnAgency(caller: Caller, agency: number | null | undefined): void {
  if (agency != null && agency !== caller.agencyId)
    throw forbidden('A site can only be written for your own agency');
}

async function respond(db: Queryable, rows: SiteRow[], populate: readonly string[]) {
  const records = rows.map(serializeSite);
  await populateSites(db, records, rows, populate);
  return records.map(withIdFirst);
}

function populateOf(url: string): string[] {
  const names = valuesOf(parseQueryString(url).populate, true);
  if (names === null)
    throw validationFailed([{ path: 'populate', message: 'populate[] must be a list of names' }]);
  const bad = names.find((n) => !(SITE_POPULATE as readonly string[]).includes(n));
  if (bad)
    throw validationFailed([
      { path: 'populate', message: `Cannot populate "${bad}"; use ${SITE_POPULATE.join(', ')}` },
    ]);
  return names;
}

/** /v1/site: create, list, get, partial update, delete (contract §6 Sites). */
export default async function siteRoutes(app: FastifyInstance, ctx: RecordsContext): Promise<void> {
  app.post('/v1/site', async (req, reply) => {
    const body = parseBody(siteCreate, req.body);
    assertOwnAgency(req.caller, body.agency);
    const { agencyId, userId } = req.caller;
    const row = await ctx.db.transaction(async (tx) => {
      await checkSiteLookups(tx, body);
      const columns = siteColumns(body);
      if (columns.region == null) columns.region = await agencyRegion(tx, agencyId);
      checkSiteDates(columns.active_date, columns.deactive_date);
      const now = ctx.now();
      await lockSiteCode(tx, agencyId, body.code);
      await assertCodeFree(
        tx,
        agencyId,
        body.code,
        (columns.active_date as string | null) ?? now.toISOString(),
        null,
      );
      return insertSite(tx, agencyId, userId, columns, now);
    });
    const [record] = await respond(ctx.db, [row], []);
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
    return { rows: applyFields(await respond(ctx.db, rows, q.populate), q.fields), count };
  });

  app.get<{ Params: { id: string } }>('/v1/site/:id', async (req) => {
    const populate = populateOf(req.url);
    const row = await findSite(ctx.db, req.caller.agencyId, pathId(req.params.id));
    if (!row) throw notFound('Site');
    return (await respond(ctx.db, [row], populate))[0];
  });

  app.put<{ Params: { id: string } }>('/v1/site/:id', async (req) => {
    const id = pathId(req.params.id);
    const parsed = parseBody(siteUpdate, req.body);
    // Response-only fields are accepted and ignored on PUT (contract §6, all records).
    const { id: _id, add_date: _a, updated: _u, delete_date: _d, ...body } = parsed;
    assertOwnAgency(req.caller, body.agency);
    const { agencyId } = req.caller;
    const row = await ctx.db.transaction(async (tx) => {
      const existing = await findSite(tx, agencyId, id);
      if (!existing || existing.delete_date !== null) throw notFound('Site');
      if (!canUpdate(req.caller, existing.user_id))
        throw forbidden('Only a manager or the technician who created this site can change it');
      if (
        existing.code === ZERO_SITE_CODE &&
        body.code !== undefined &&
        body.code !== ZERO_SITE_CODE
      ) {
        throw validationFailed([{ path: 'code', message: 'The Zero Site keeps code 000000' }]);
      }
      await checkSiteLookups(tx, body);
      const columns = siteColumns(body);
      const activeDate =
        columns.active_date !== undefined ? columns.active_date : isoOrNull(existing.active_date);
      const deactiveDate =
        columns.deactive_date !== undefined
          ? columns.deactive_date
          : isoOrNull(existing.deactive_date);
      checkSiteDates(activeDate, deactiveDate);
      const code = body.code ?? existing.code;
      const affectsCode =
        body.code !== undefined ||
        body.active_date !== undefined ||
        body.deactive_date !== undefined;
      const now = ctx.now();
      if (affectsCode && existing.code !== ZERO_SITE_CODE) {
        await lockSiteCode(tx, agencyId, code);
        await assertCodeFree(
          tx,
          agencyId,
          code,
          (activeDate as string | null) ?? isoOrNull(existing.add_date)!,
          id,
        );
      }
      return updateSite(tx, agencyId, id, columns, now);
    });
    return (await respond(ctx.db, [row], []))[0];
  });

  app.delete<{ Params: { id: string } }>('/v1/site/:id', async (req) => {
    const id = pathId(req.params.id);
    const { agencyId } = req.caller;
    const row = await ctx.db.transaction(async (tx) => {
      const existing = await findSite(tx, agencyId, id);
      if (!existing || existing.delete_date !== null) throw notFound('Site');
      if (req.caller.role !== 'manager') throw forbidden('Only a manager can delete a site');
      if (existing.code === ZERO_SITE_CODE) {
        throw new ApiError(422, 'validation_failed', 'The Zero Site cannot be deleted', [
          { path: 'code', message: 'The Zero Site cannot be deleted' },
        ]);
      }
      return markSiteDeleted(tx, agencyId, id, ctx.now());
    });
    return (await respond(ctx.db, [row], []))[0];
  });
}
