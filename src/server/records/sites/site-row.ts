/** A row of the `site` table as the queries here select it (`elevation` as text). */
export type SiteRow = {
  id: number;
  agency: number;
  user_id: number | null;
  code: string;
  name: string;
  coordinate_precision: number;
  lon: number;
  lat: number;
  active_date: Date | string | null;
  deactive_date: Date | string | null;
  address_1: string | null;
  address_2: string | null;
  city: string | null;
  comments: string | null;
  elevation: string | null;
  postal_code: string | null;
  region: number | null;
  revision_comments: string | null;
  site_population: string | null;
  site_land_usage: number[] | null;
  site_land_usage_custom: string[] | null;
  add_date: Date | string;
  updated: Date | string;
  delete_date: Date | string | null;
};

/** Select list giving a SiteRow for table alias `s`. */
export const SITE_COLUMNS = `s.id, s.agency, s.user_id, s.code, s.name, s.coordinate_precision, s.lon, s.lat,
  s.active_date, s.deactive_date, s.address_1, s.address_2, s.city, s.comments, s.elevation::text as elevation,
  s.postal_code, s.region, s.revision_comments, s.site_population, s.site_land_usage, s.site_land_usage_custom,
  s.add_date, s.updated, s.delete_date`;
