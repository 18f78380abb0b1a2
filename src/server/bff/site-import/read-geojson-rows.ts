import { IMPORT_COLUMNS, type ImportColumn } from '#shared/schemas/site-import';
import { fileError, type ImportRow, type ReadRows } from './import-rows';

/** Properties a feature may carry for the site; latitude and longitude come from its geometry. */
const PROPERTY_COLUMNS = IMPORT_COLUMNS.filter((c) => c !== 'latitude' && c !== 'longitude');

/**
 * GeoJSON text → rows: a FeatureCollection whose features are Points carrying the site's fields
 * as properties. Other properties (a GIS layer's OBJECTID, Shape_Length...) are ignored: an
 * attribute table always has some. A feature whose geometry is not a Point is a row error, so a
 * polygon layer chosen by mistake lists every feature rather than importing centroids.
 */
export function readGeoJsonRows(text: string): ReadRows {
  if (text.trim() === '') {
    return {
      rows: [],
      count: 0,
      errors: [fileError('empty_file', 'The file is empty: it has no features')],
    };
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return {
      rows: [],
      count: 0,
      errors: [fileError('malformed_file', 'The file is not valid JSON, so it is not GeoJSON')],
    };
  }
  const collection = doc as { type?: unknown; features?: unknown };
  if (
    !doc ||
    typeof doc !== 'object' ||
    collection.type !== 'FeatureCollection' ||
    !Array.isArray(collection.features)
  ) {
    return {
      rows: [],
      count: 0,
      errors: [
        fileError(
          'malformed_file',
          'The file must be a GeoJSON FeatureCollection of Points (one feature per site)',
        ),
      ],
    };
  }
  const rows: ImportRow[] = [];
  const errors: ReadRows['errors'] = [];
  collection.features.forEach((f: unknown, i) => {
    const row = i + 1;
    const feature = (f && typeof f === 'object' ? f : {}) as {
      type?: unknown;
      geometry?: { type?: unknown; coordinates?: unknown } | null;
      properties?: unknown;
    };
    if (feature.type !== 'Feature') {
      errors.push({
        row,
        field: '(row)',
        code: 'malformed_file',
        message: `Item ${row} is not a GeoJSON Feature`,
      });
      return;
    }
    const geometry = feature.geometry;
    if (!geometry || geometry.type !== 'Point') {
      const kind = geometry && typeof geometry.type === 'string' ? geometry.type : 'no geometry';
      errors.push({
        row,
        field: 'geometry',
        code: 'not_a_point',
        message: `Feature ${row} is a ${kind}; a site is a Point (longitude, latitude)`,
      });
      return;
    }
    const props = (
      feature.properties && typeof feature.properties === 'object' ? feature.properties : {}
    ) as Record<string, unknown>;
    const values: ImportRow['values'] = {};
    for (const col of PROPERTY_COLUMNS) {
      if (Object.hasOwn(props, col)) values[col as ImportColumn] = props[col];
    }
    const c = Array.isArray(geometry.coordinates) ? geometry.coordinates : [];
    values.longitude = c[0] ?? null;
    values.latitude = c[1] ?? null;
    rows.push({ row, values });
  });
  return { rows, errors, count: collection.features.length };
}
