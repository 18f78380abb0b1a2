import type { Queryable, Row } from '../../db/database';
import { CRS_4326 } from '../../../shared/schemas/common';
import { isoDate } from './iso-date';

/**
 * Sites by ID in their record shape, for `populate[]=site` of collections and pools (the
 * agency filter holds: a record only ever references its own agency's site).
 */
export async function siteRecords(
  q: Queryable,
  agency: number,
  ids: Iterable<number | null | undefined>,
): Promise<Map<number, Row>> {
  const wanted = [...new Set([...ids].filter((v): v is number => typeof v === 'number'))];
  if (wanted.length === 0) return new Map();
  const { rows } = await q.query('select * from site where agency = $1 and id = any($2::int[])', [
    agency,
    wanted,
  ]);
  return new Map(
    rows.map((s) => [
      s.id as number,
      {
        id: s.id,
        agency: s.agency,
        user: s.user_id,
        code: s.code,
        name: s.name,
        coordinate_precision: s.coordinate_precision,
        shape: { type: 'Point', coordinates: [s.lon, s.lat], crs: CRS_4326 },
        active_date: isoDate(s.active_date),
        deactive_date: isoDate(s.deactive_date),
        address_1: s.address_1,
        address_2: s.address_2,
        city: s.city,
        comments: s.comments,
        // Contract §3: elevation is returned as a numeric string.
        elevation: s.elevation === null ? null : String(s.elevation),
        postal_code: s.postal_code,
        region: s.region,
        revision_comments: s.revision_comments,
        site_population: s.site_population,
        site_land_usage: s.site_land_usage ?? [],
        site_land_usage_custom: s.site_land_usage_custom ?? [],
        add_date: isoDate(s.add_date),
        updated: isoDate(s.updated),
        delete_date: isoDate(s.delete_date),
      } as Row,
    ]),
  );
}
