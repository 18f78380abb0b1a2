import type { FastifyInstance } from 'fastify';
import type { RecordsContext } from '../../context';
import { listActive, populateRefs, type ShapeKind } from '../../populate';
import { parseQueryString, valuesOf } from '../../list';
import { validationFailed } from '../../errors';

/** Lookup lists (contract §5): `{rows, count}` of active entries, every one behind a token. */
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

const AGENCY_POPULATE = ['shape', 'region'];

export default async function lookupRoutes(
  app: FastifyInstance,
  ctx: RecordsContext,
): Promise<void> {
  for (const [path, kind] of Object.entries(LOOKUP_PATHS)) {
    app.get(path, async () => {
      const rows = await listActive(ctx.db, kind);
      return { rows, count: rows.length };
    });
  }

  // Every agency, so a pool test can name an outside laboratory. populate[]: shape, region.
  app.get('/v1/agency', async (req) => {
    const populate = valuesOf(parseQueryString(req.url).populate, true);
    if (populate === null)
      throw validationFailed([{ path: 'populate', message: 'populate[] must be a list of names' }]);
    const unknown = populate.filter((p) => !AGENCY_POPULATE.includes(p));
    if (unknown.length > 0) {
      throw validationFailed([
        { path: 'populate', message: `Cannot populate "${unknown[0]}"; use shape, region` },
      ]);
    }
    const rows: Record<string, unknown>[] = await listActive(ctx.db, 'agency');
    if (populate.includes('shape')) {
      const { rows: shapes } = await ctx.db.query<{ id: number; shape: unknown }>(
        'select id, shape from agency',
      );
      const byId = new Map(shapes.map((s) => [Number(s.id), s.shape ?? null]));
      for (const r of rows) r.shape = byId.get(r.id as number) ?? null;
    }
    if (populate.includes('region')) await populateRefs(ctx.db, rows, 'region', 'region');
    return { rows, count: rows.length };
  });
}
