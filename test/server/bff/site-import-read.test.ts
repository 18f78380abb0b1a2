import { describe, expect, it } from 'vitest';
import { readCsvRows } from '../../../src/server/bff/site-import/read-csv-rows';
import { readGeoJsonRows } from '../../../src/server/bff/site-import/read-geojson-rows';

const HEADER = 'code,name,latitude,longitude,coordinate_precision';

describe('reading an import file into rows', () => {
  it('numbers rows as a spreadsheet does: a quoted line break stays in its row, blank rows count', () => {
    const csv = `${HEADER}\r\n"300001","Two\r\nlines",38.5,-121.5,1\r\n\r\n300002,Next,38.6,-121.6,1\r\n`;
    const read = readCsvRows(csv);
    expect(read.errors).toEqual([]);
    expect(read.count).toBe(2);
    expect(read.rows.map((r) => [r.row, r.values.name])).toEqual([
      [2, 'Two\r\nlines'],
      [4, 'Next'],
    ]);
  });

  it('reads header names as people type them', () => {
    const read = readCsvRows(
      'Code, Name ,Latitude,LONGITUDE,Coordinate Precision\n300001,A,1,2,1\n',
    );
    expect(read.errors).toEqual([]);
    expect(read.rows[0].values).toEqual({
      code: '300001',
      name: 'A',
      latitude: '1',
      longitude: '2',
      coordinate_precision: '1',
    });
  });

  it('keeps a stray quote inside an unquoted cell, and names the line of an unclosed quote', () => {
    expect(readCsvRows(`${HEADER}\n300001,5" pipe,38.5,-121.5,1\n`).rows[0].values.name).toBe(
      '5" pipe',
    );
    const open = readCsvRows(
      `${HEADER}\n300001,A,38.5,-121.5,1\n300002,"Never closed,38.5,-121.5,1\n`,
    );
    expect(open.errors).toEqual([
      expect.objectContaining({ field: '(file)', code: 'malformed_file' }),
    ]);
    expect(open.errors[0].message).toMatch(/never closed/);
  });

  it('takes GeoJSON coordinates from the geometry and ignores a GIS layer’s other properties', () => {
    const read = readGeoJsonRows(
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            geometry: { type: 'Point', coordinates: [-121.5, 38.5, 12] },
            properties: { code: '300001', name: 'A', coordinate_precision: 1, OBJECTID: 4 },
          },
          { type: 'Feature', geometry: null, properties: { code: '300002' } },
        ],
      }),
    );
    expect(read.rows).toEqual([
      {
        row: 1,
        values: {
          code: '300001',
          name: 'A',
          coordinate_precision: 1,
          longitude: -121.5,
          latitude: 38.5,
        },
      },
    ]);
    expect(read.errors).toEqual([
      expect.objectContaining({ row: 2, field: 'geometry', code: 'not_a_point' }),
    ]);
    expect(readGeoJsonRows('{"type":"Feature"}').errors[0].code).toBe('malformed_file');
  });
});
