import type { Queryable } from '../../db/database';
import { DEMO_SITES } from './demo-sites';
import { PRECISION_ID } from './lookup-data';

export type SeededSite = { id: number; code: string; lon: number; lat: number; gravid: boolean };

/** Seeds agency 1's demo sites with codes 100101, 100102, … by the technician demo-tech (user 2). */
export async function seedDemoSites(db: Queryable, now: Date): Promise<SeededSite[]> {
  const out: SeededSite[] = [];
  const activeDate = `${now.getUTCFullYear() - 2}-03-01T00:00:00.000Z`;
  for (const [i, s] of DEMO_SITES.entries()) {
    const code = String(100101 + i);
    const { rows } = await db.query<{ id: number }>(
      `insert into site (agency, user_id, code, name, coordinate_precision, lon, lat, active_date, address_1, city,
         postal_code, region, site_population, site_land_usage, elevation)
       values (1, 2, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::int[], $13) returning id`,
      [
        code,
        s.name,
        s.precision ?? PRECISION_ID.gps,
        s.lon,
        s.lat,
        activeDate,
        s.address_1,
        s.city,
        s.postal_code,
        s.region,
        s.site_population,
        s.land,
        s.elevation,
      ],
    );
    out.push({ id: rows[0].id, code, lon: s.lon, lat: s.lat, gravid: s.name.includes('gravid') });
  }
  return out;
}
