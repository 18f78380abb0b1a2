import type { Queryable } from '../../src/server/db/database';
import { PRECISION_ID } from '../../src/server/records/seed/lookup-data';

/** First code of a grown site: above the demo sites' and the Zero Site's, six digits up to 999999. */
const FIRST_CODE = 100_001;

/**
 * Gives agency 1 (seeded demo agencies and lookups expected) `count` active trap sites scattered
 * over a district-sized area around Sacramento (about 1.2° × 0.9°, the Sacramento–Yolo district),
 * by one bulk SQL insert: 100,000 sites take seconds, not the hours of one request each. Codes run
 * from 100001 up, names "Scale site N". Positions come from a fixed formula (no randomness), so two
 * runs draw the same map. Data, not a test of the write path.
 */
export async function growSites(db: Queryable, count: number): Promise<{ first: number }> {
  if (FIRST_CODE + count - 1 > 999_999)
    throw new Error(`at most ${999_999 - FIRST_CODE + 1} sites`);
  // Quasi-random spread (golden-ratio sequences): even coverage with local density variations.
  await db.query(
    `insert into site (agency, user_id, code, name, coordinate_precision, lon, lat, add_date, updated)
     select 1, 2, lpad(($1::int - 1 + g)::text, 6, '0'), 'Scale site ' || g, $2,
            -122.1 + 1.2 * ((g * 0.6180339887498949) - floor(g * 0.6180339887498949)),
            38.2 + 0.9 * ((g * 0.7548776662466927) - floor(g * 0.7548776662466927)),
            now(), now()
       from generate_series(1, $3::int) g`,
    [FIRST_CODE, PRECISION_ID.gps, count],
  );
  return { first: FIRST_CODE };
}
