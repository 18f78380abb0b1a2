import type { Queryable, Row } from '../../db/database';
import { CRS_4326 } from '#shared/schemas/common';

export type LocationRecord = {
  id: number;
  table_name: string;
  record_id: number | null;
  agency: number;
  shape: { type: 'Point'; coordinates: [number, number]; crs: typeof CRS_4326 };
  coordinate_precision: number | null;
};

/** Columns to select (with `l` the location table) for `locationRecord`. */
export const LOCATION_COLUMNS =
  'l.id as loc_id, l.table_name as loc_table_name, l.record_id as loc_record_id, l.agency as loc_agency, l.lon as loc_lon, l.lat as loc_lat, l.coordinate_precision as loc_coordinate_precision';

/** The location record of rule 5 from a row selected with LOCATION_COLUMNS; null when none. */
export function locationRecord(row: Row): LocationRecord | null {
  if (row.loc_id == null) return null;
  return {
    id: row.loc_id as number,
    table_name: row.loc_table_name as string,
    record_id: (row.loc_record_id as number | null) ?? null,
    agency: row.loc_agency as number,
    shape: {
      type: 'Point',
      coordinates: [row.loc_lon as number, row.loc_lat as number],
      crs: CRS_4326,
    },
    coordinate_precision: (row.loc_coordinate_precision as number | null) ?? null,
  };
}

export type Point = { lon: number; lat: number; coordinatePrecision: number | null };

/**
 * The LOCATION_COLUMNS of a location row just written with these values (float8 keeps a double
 * exactly), for locationRecord without reading the row back.
 */
export function locationColumns(written: {
  id: number;
  table: string;
  recordId: number | null;
  agency: number;
  point: Point;
}): Row {
  return {
    loc_id: written.id,
    loc_table_name: written.table,
    loc_record_id: written.recordId,
    loc_agency: written.agency,
    loc_lon: written.point.lon,
    loc_lat: written.point.lat,
    loc_coordinate_precision: written.point.coordinatePrecision,
  };
}

/** Inserts the location of a record (rule 5) and returns its ID. */
export async function insertLocation(
  q: Queryable,
  tableName: string,
  recordId: number | null,
  agency: number,
  p: Point,
): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `insert into location (table_name, record_id, agency, lon, lat, coordinate_precision)
     values ($1, $2, $3, $4, $5, $6) returning id`,
    [tableName, recordId, agency, p.lon, p.lat, p.coordinatePrecision],
  );
  return rows[0].id;
}
