import type { Queryable } from '../../src/server/db/database';
import { PRECISION_ID } from '../../src/server/records/seed/lookup-data';

/** First code of a grown site: above the demo sites' and the Zero Site's, six digits up to 999999. */
const FIRST_CODE = 100_001;

/**
 * Gives agency 1 (seeded demo agencies and lookups expected) `count` more active trap sites scattered
 * over a district-sized area around Sacramento (about 1.2° × 0.9°, the Sacramento–Yolo district),
 * by one bulk SQL insert: 100,000 sites take seconds, not the hours of one request each. Codes run
 * from 100001 up, names "Scale site N". Positions come from a fixed formula (no randomness), so two
 * runs draw the same map. Data, not a test of the write path.
 */
export async function growSites(
  db: Queryable,
  count: number,
  /** Sites grown before (by an earlier call): the new ones follow them. */
  grownBefore = 0,
): Promise<void> {
  const last = grownBefore + count;
  if (FIRST_CODE + last - 1 > 999_999) throw new Error(`at most ${999_999 - FIRST_CODE + 1} sites`);
  // Quasi-random spread (golden-ratio sequences): even coverage with local density variations.
  await db.query(
    `insert into site (agency, user_id, code, name, coordinate_precision, lon, lat, add_date, updated)
     select 1, 2, lpad(($1::int - 1 + g)::text, 6, '0'), 'Scale site ' || g, $2,
            -122.1 + 1.2 * ((g * 0.6180339887498949) - floor(g * 0.6180339887498949)),
            38.2 + 0.9 * ((g * 0.7548776662466927) - floor(g * 0.7548776662466927)),
            now(), now()
       from generate_series($3::int + 1, $4::int) g`,
    [FIRST_CODE, PRECISION_ID.gps, grownBefore, last],
  );
}
