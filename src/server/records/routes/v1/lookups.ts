import type { FastifyInstance } from 'fastify';
import type { RecordsContext } from '../../context';
import { listLookup, populateRefs, type LookupExpansion } from '../../populate';
import { lookupListSpec } from '../../populate/list-lookup';
import { listQuerystring } from '../../list/list-querystring';
import { LOOKUP_LISTS, LOOKUP_NAMES } from '#shared/schemas/lookups';
import { LOOKUP_LIST_RESPONSES } from '../../openapi/named-schemas';
import { answer, errorAnswers, LIST_QUERY, LOOKUP_QUERY } from '../../openapi/route-schemas';

/** `/v1/agency` populate[]: `shape` (the agency's boundary, null where unknown) and `region`. */
const AGENCY_EXPANSION: LookupExpansion = {
  names: ['shape', 'region'],
  outputFields: ['shape'],
  async apply(db, rows, names) {
    if (names.includes('shape')) {
      const { rows: shapes } = await db.query<{ id: number; shape: unknown }>(
        'select id, shape from agency where id = any($1::int[])',
        [rows.map((r) => r.id)],
      );
      const byId = new Map(shapes.map((s) => [Number(s.id), s.shape ?? null]));
      for (const r of rows) r.shape = byId.get(r.id) ?? null;
    }
    if (names.includes('region')) await populateRefs(db, rows, 'region', 'region');
  },
};

/** Each lookup list's route schema, built once (not per app). */
const LOOKUP_SCHEMAS = new Map(
  LOOKUP_NAMES.map((name) => [
    name,
    {
      tags: ['lookups'],
      querystring: listQuerystring(
        name === 'agency' ? LIST_QUERY : LOOKUP_QUERY,
        lookupListSpec(name, name === 'agency' ? AGENCY_EXPANSION : undefined),
      ),
      response: {
        200: answer(`The ${name} list`, LOOKUP_LIST_RESPONSES.get(name)!),
        ...errorAnswers('400', '401', '422'),
      },
    },
  ]),
);

/**
 * Lookup lists (contract §5): `{rows, count}` of active entries, every one behind a token, paged
 * like every list (`page`, `pageSize`): the public R client reads each one page by page until a
 * page is empty. `/v1/agency` lists every agency, so a pool test can name an outside laboratory.
 */
export default async function lookupRoutes(
  app: FastifyInstance,
  ctx: RecordsContext,
): Promise<void> {
  for (const name of LOOKUP_NAMES) {
    const expansion = name === 'agency' ? AGENCY_EXPANSION : undefined;
    app.get(LOOKUP_LISTS[name].path, { schema: LOOKUP_SCHEMAS.get(name) }, async (req) =>
      listLookup(ctx.db, name, req.url, expansion),
    );
  }
}
