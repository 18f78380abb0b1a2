import type { Queryable } from '../../db/database';
import { ZERO_SITE_CODE } from '#shared/schemas/site';

export type AgencySite = {
  id: number;
  code: string;
  lon: number;
  lat: number;
  coordinate_precision: number | null;
  isZeroSite: boolean;
};

/**
 * A live (not deleted) site of the agency, or null. A site of another agency is reported
 * exactly like a missing one, so its existence is never revealed.
 */
export async function agencySite(
  q: Queryable,
  agency: number,
  id: number,
): Promise<AgencySite | null> {
  const { rows } = await q.query<Omit<AgencySite, 'isZeroSite'>>(
    `select id, code, lon, lat, coordinate_precision from site
      where id = $1 and agency = $2 and delete_date is null`,
    [id, agency],
  );
  return rows.length === 0 ? null : asAgencySite(rows[0]);
}

/** A site row as read (id, code, lon, lat, coordinate_precision), with what its code says. */
export function asAgencySite(row: Omit<AgencySite, 'isZeroSite'>): AgencySite {
  return { ...row, isZeroSite: row.code === ZERO_SITE_CODE };
}

export const noSuchSite = (id: number) => ({
  path: 'site',
  message: `No site with ID ${id} in your agency; pick one of your sites`,
});
