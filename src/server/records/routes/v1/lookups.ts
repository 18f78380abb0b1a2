import type { FastifyInstance } from 'fastify';
import type { RecordsContext } from '../../context';
import { listLookup, populateRefs, type LookupExpansion, type ShapeKind } from '../../populate';

/**
 * Lookup lists (contract §5): `{rows, count}` of active entries, every one behind a token, paged
 * like every list (`page`, `pageSize`): the public R client reads each one page by page until a
 * page is empty.
 */
const LOOKUP_PATHS: Record<string, ShapeKind> = {
  '/v1/species': 'species',
  '/v1/sex': 'sex',
  '/v1/trap': 'trap',
  '/v1/lure': 'lure',
  '/v1/coordinate-precision': 'coordinate_precision',
  '/v1/land-usage': 'land_usage',
  '/v1/region': 'region',
  '/v1/test/method': 'test_method',
  '/v1/test/target': 'test_target',
  '/v1/test/status': 'test_status',
};

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

export default async function lookupRoutes(
  app: FastifyInstance,
  ctx: RecordsContext,
): Promise<void> {
  for (const [path, kind] of Object.entries(LOOKUP_PATHS)) {
    app.get(path, async (req) => listLookup(ctx.db, kind, req.url));
  }
  // Every agency, so a pool test can name an outside laboratory.
  app.get('/v1/agency', async (req) => listLookup(ctx.db, 'agency', req.url, AGENCY_EXPANSION));
}
