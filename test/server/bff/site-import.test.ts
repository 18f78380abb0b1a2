import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportReport } from '../../../src/shared/schemas/site-import';
import { startBffStack, type BffStack } from './helpers/bff-stack';

let stack: BffStack;
let manager: string;
let tech: string;
let neighbor: string;

type Answer = ImportReport & { error?: { code: string; message: string } };

const HEADER =
  'code,name,latitude,longitude,coordinate_precision,active_date,deactive_date,comments';

/** The file as the app sends it: its bytes as they are, with the app's headers. */
async function importFile(
  body: string | Buffer,
  options: { type?: string; dryRun?: boolean; cookie?: string } = {},
) {
  const res = await request(
    `${stack.url}/api/import/sites${options.dryRun ? '?dry_run=true' : ''}`,
    {
      method: 'POST',
      headers: {
        origin: stack.url,
        'x-csrf': '1',
        cookie: options.cookie ?? manager,
        'content-type': options.type ?? 'text/csv',
      },
      body,
    },
  );
  const text = await res.body.text();
  return { status: res.statusCode, text, json: <T = Answer>() => JSON.parse(text) as T };
}

type SiteRow = {
  id: number;
  code: string;
  name: string;
  comments: string | null;
  shape: { coordinates: [number, number] };
  coordinate_precision: number;
  active_date: string | null;
};

async function sitesOf(cookie: string): Promise<SiteRow[]> {
  const res = await stack.api('/api/v1/site?pageSize=1000', { cookie });
  expect(res.status, res.text).toBe(200);
  return res.json<{ rows: SiteRow[] }>().rows;
}

const byCode = (rows: SiteRow[], code: string) => rows.find((r) => r.code === code);

beforeAll(async () => {
  stack = await startBffStack();
  [manager, tech, neighbor] = await Promise.all([
    stack.signIn('demo-manager'),
    stack.signIn('demo-tech'),
    stack.signIn('neighbor-manager'),
  ]);
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

describe('POST /api/import/sites', () => {
  it('refuses a technician with 403 and the contract error body, writing nothing', async () => {
    const before = await sitesOf(tech);
    const res = await importFile(`${HEADER}\n300001,Tech try,38.5,-121.5,1,,,\n`, { cookie: tech });
    expect(res.status).toBe(403);
    expect(res.json()).toEqual({
      error: { code: 'forbidden', message: 'Only a manager can import sites' },
    });
    expect(await sitesOf(tech)).toHaveLength(before.length);
  });

  it('reads a BOM, Windows line ends and quoted cells with commas, quotes and line breaks; a dry run writes nothing', async () => {
    const csv =
      `\ufeff${HEADER}\r\n` +
      `300101,"Putah Creek, North",38.52,-121.77,1,2026-04-01,,"Under the ""big"" oak"\r\n` +
      `300102,"Line one\r\nline two",38.58,-121.49,GPS (< 10 m),,,\r\n` +
      `300103,Yolo Bypass,38.6,-121.6,2,,,\r\n`;
    const before = await sitesOf(manager);
    const dry = await importFile(csv, { dryRun: true });
    expect(dry.status, dry.text).toBe(200);
    expect(dry.json<Answer>()).toMatchObject({
      rows: 3,
      created: 3,
      updated: 0,
      unchanged: 0,
      errors: [],
    });
    expect(await sitesOf(manager)).toHaveLength(before.length);

    const res = await importFile(csv);
    expect(res.status, res.text).toBe(200);
    expect(res.json<Answer>()).toMatchObject({ rows: 3, created: 3, updated: 0, unchanged: 0 });
    const after = await sitesOf(manager);
    expect(byCode(after, '300101')).toMatchObject({
      name: 'Putah Creek, North',
      comments: 'Under the "big" oak',
      shape: { coordinates: [-121.77, 38.52] },
      coordinate_precision: 1,
      active_date: '2026-04-01T00:00:00.000Z',
    });
    expect(byCode(after, '300102')?.name).toBe('Line one\r\nline two');

    // The same file again creates nothing.
    const again = await importFile(csv);
    expect(again.json<Answer>()).toMatchObject({ rows: 3, created: 0, updated: 0, unchanged: 3 });
    expect(await sitesOf(manager)).toHaveLength(after.length);
  });

  it('updates only the sites where a field differs, and only those fields', async () => {
    const first = `${HEADER}\n300201,Elk Grove A,38.40,-121.37,1,,,first\n300202,Elk Grove B,38.41,-121.38,1,,,\n`;
    expect((await importFile(first)).status).toBe(200);
    const edited = `${HEADER}\n300201,Elk Grove A (moved),38.42,-121.37,1,,,first\n300202,Elk Grove B,38.41,-121.38,1,,,\n`;
    const res = await importFile(edited);
    expect(res.json<Answer>()).toMatchObject({ rows: 2, created: 0, updated: 1, unchanged: 1 });
    const site = byCode(await sitesOf(manager), '300201');
    expect(site).toMatchObject({
      name: 'Elk Grove A (moved)',
      comments: 'first',
      shape: { coordinates: [-121.37, 38.42] },
    });
    // A file without the optional columns leaves them as they are.
    const short = `code,name,latitude,longitude,coordinate_precision\n300201,Elk Grove A (moved),38.42,-121.37,1\n`;
    expect((await importFile(short)).json<Answer>()).toMatchObject({ unchanged: 1, updated: 0 });
    expect(byCode(await sitesOf(manager), '300201')?.comments).toBe('first');
  });

  it('lists every bad row with its row and field, and writes nothing', async () => {
    const csv = [
      HEADER,
      '300301,Good one,38.5,-121.5,1,,,', // row 2: fine
      '300302,Swapped,-121.5,38.5,1,,,', // row 3: latitude out of range (swapped)
      '300303,Bad precision,38.5,-121.5,Satellite,,,', // row 4: unknown precision
      '300301,Twice,38.5,-121.5,1,,,', // row 5: duplicate of row 2
      "300305,Not a number,38°30'N,-121.5,1,,,", // row 6: latitude not a number
      '1234,Short code,38.5,-121.5,1,,,', // row 7: leading zeros lost
      '300307,,38.5,-121.5,1,,,', // row 8: no name
      '300308,Backwards,38.5,-121.5,1,2026-05-01,2026-04-01,', // row 9: dates
      '000000,Zero,38.5,-121.5,1,,,', // row 10: the Zero Site's code
      '300310,Short row,38.5', // row 11: too few cells
    ].join('\n');
    const before = await sitesOf(manager);
    const res = await importFile(csv);
    expect(res.status).toBe(422);
    const body = res.json<Answer>();
    expect(body.error?.code).toBe('validation_failed');
    expect(body.created).toBe(0);
    expect(body.rows).toBe(10);
    const where = body.errors.map((e) => [e.row, e.field, e.code]);
    expect(where).toEqual([
      [3, 'latitude', 'validation_failed'],
      [4, 'coordinate_precision', 'unknown_lookup'],
      [5, 'code', 'duplicate_code'],
      [6, 'latitude', 'validation_failed'],
      [7, 'code', 'validation_failed'],
      [8, 'name', 'validation_failed'],
      [9, 'deactive_date', 'validation_failed'],
      [10, 'code', 'reserved_code'],
      [11, '(row)', 'wrong_column_count'],
    ]);
    expect(body.errors[0].message).toMatch(/swapped/);
    expect(body.errors[2].message).toMatch(/row 2/);
    expect(body.errors[4].message).toMatch(/leading zeros.*001234/);
    expect(await sitesOf(manager)).toHaveLength(before.length);
    expect(byCode(await sitesOf(manager), '300301')).toBeUndefined();

    // The dry run lists the same rows and says what the good rows would do.
    const dry = await importFile(csv, { dryRun: true });
    expect(dry.status).toBe(200);
    expect(dry.json<Answer>()).toMatchObject({ rows: 10, created: 1, errors: body.errors });
  });

  it('gives each problem a stable code and the values its sentence names, for the app to say in Spanish (issue 38)', async () => {
    const csv = [
      HEADER,
      '300401,Good one,38.5,-121.5,1,,,', // row 2
      '300402,Swapped,-121.5,38.5,1,,,', // row 3
      '300403,Bad precision,38.5,-121.5,Satellite,,,', // row 4
      '300401,Twice,38.5,-121.5,1,,,', // row 5: duplicate of row 2
      "300405,Not a number,38°30'N,-121.5,1,,,", // row 6
      '1234,Short code,38.5,-121.5,1,,,', // row 7
      '300407,,38.5,-121.5,1,,,', // row 8: no name
      '12345a,Letters,38.5,-121.5,1,,,', // row 9
      '300409,Short row,38.5', // row 10
    ].join('\n');
    const res = await importFile(csv);
    expect(res.status).toBe(422);
    const body = res.json<Answer>();
    const said = body.errors.map(({ row, code, problem, values }) => ({
      row,
      code,
      problem,
      values,
    }));
    expect(said).toEqual([
      {
        row: 3,
        code: 'validation_failed',
        problem: 'coordinates_swapped',
        values: { latitude: -121.5, longitude: 38.5 },
      },
      {
        row: 4,
        code: 'unknown_lookup',
        problem: undefined,
        values: {
          value: 'Satellite',
          choices: expect.arrayContaining([expect.stringMatching(/^1 /)]),
        },
      },
      {
        row: 5,
        code: 'duplicate_code',
        problem: undefined,
        values: { code: '300401', first: 2 },
      },
      {
        row: 6,
        code: 'validation_failed',
        problem: 'not_a_number',
        values: { column: 'latitude', value: "38°30'N", example: '38.58' },
      },
      {
        row: 7,
        code: 'validation_failed',
        problem: 'code_short',
        values: { code: '1234', padded: '001234' },
      },
      { row: 8, code: 'validation_failed', problem: 'required', values: { column: 'name' } },
      { row: 9, code: 'validation_failed', problem: 'code_digits', values: { code: '12345a' } },
      {
        row: 10,
        code: 'wrong_column_count',
        problem: undefined,
        values: { cells: 3, columns: 8 },
      },
    ]);
    // The contract's `fields` carry the same, each with its problem (the code where no finer one).
    const { fields } = (
      res.json() as {
        error: { fields: Array<{ path: string; problem: string; values?: object }> };
      }
    ).error;
    expect(fields[2]).toEqual({
      path: 'rows.5.code',
      message: expect.stringMatching(/row 2/),
      problem: 'duplicate_code',
      values: { code: '300401', first: 2 },
    });
    expect(fields.map((f) => f.problem)).toContain('required');
  });

  it('says which columns a file without a header row lacks', async () => {
    const res = await importFile('300401,No header,38.5,-121.5,1,,,\n');
    expect(res.status).toBe(422);
    const errors = res.json<Answer>().errors;
    expect(errors.map((e) => [e.row, e.field, e.code])).toEqual([
      [1, 'code', 'missing_column'],
      [1, 'name', 'missing_column'],
      [1, 'latitude', 'missing_column'],
      [1, 'longitude', 'missing_column'],
      [1, 'coordinate_precision', 'missing_column'],
    ]);
    expect(errors[0].message).toMatch(/first row must be a header/);
    const typo = await importFile('code,name,lat,longitude,coordinate_precision\n');
    expect(typo.json<Answer>().errors.map((e) => [e.row, e.field, e.code])).toEqual([
      [1, 'latitude', 'missing_column'],
      [1, 'lat', 'unknown_column'],
    ]);
  });

  it('answers an empty file with the empty_file error', async () => {
    for (const body of ['', '\ufeff', '\r\n\r\n']) {
      const res = await importFile(body, { dryRun: true });
      expect(res.status).toBe(200);
      expect(res.json<Answer>()).toMatchObject({
        rows: 0,
        errors: [{ row: 1, field: '(file)', code: 'empty_file' }],
      });
    }
  });

  it('refuses a file that is not UTF-8 with the line of the bad character', async () => {
    const latin1 = Buffer.from(`${HEADER}\n300501,M\xfcller Ranch,38.5,-121.5,1,,,\n`, 'latin1');
    const res = await importFile(latin1, { dryRun: true });
    expect(res.json<Answer>().errors).toEqual([
      expect.objectContaining({ row: 2, code: 'not_utf8', field: '(file)' }),
    ]);
  });

  it('answers 413 with the limit for 20,001 rows and for more than 10 MB', async () => {
    const lines = [HEADER];
    for (let i = 0; i < 20_001; i++) lines.push(`${400000 + i},Site ${i},38.5,-121.5,1,,,`);
    const many = await importFile(lines.join('\n'), { dryRun: true });
    expect(many.status).toBe(413);
    expect(many.json()).toMatchObject({ error: { code: 'payload_too_large' } });
    expect(many.json<Answer>().error?.message).toMatch(/20,001 sites; at most 20,000/);

    const big = `${HEADER}\n300601,Big,38.5,-121.5,1,,,${'x'.repeat(10 * 1024 * 1024)}\n`;
    const huge = await importFile(big, { dryRun: true });
    expect(huge.status).toBe(413);
    expect(huge.json<Answer>().error?.message).toMatch(/larger than 10 MB/);
  });

  it('imports GeoJSON points and lists a polygon as a row error', async () => {
    const point = (code: string, name: string, lon: number, lat: number) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [lon, lat] },
      properties: { code, name, coordinate_precision: 1, OBJECTID: 7 },
    });
    const polygon = {
      type: 'Feature',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [-121.5, 38.5],
            [-121.4, 38.5],
            [-121.4, 38.6],
            [-121.5, 38.5],
          ],
        ],
      },
      properties: { code: '300702', name: 'A field', coordinate_precision: 1 },
    };
    const bad = {
      type: 'FeatureCollection',
      features: [point('300701', 'Point A', -121.5, 38.5), polygon],
    };
    const res = await importFile(JSON.stringify(bad), { type: 'application/geo+json' });
    expect(res.status).toBe(422);
    expect(res.json<Answer>().errors).toEqual([
      expect.objectContaining({ row: 2, field: 'geometry', code: 'not_a_point' }),
    ]);
    expect(byCode(await sitesOf(manager), '300701')).toBeUndefined();

    const good = {
      type: 'FeatureCollection',
      features: [point('300701', 'Point A', -121.5, 38.5)],
    };
    const ok = await importFile(JSON.stringify(good), { type: 'application/geo+json' });
    expect(ok.json<Answer>()).toMatchObject({ rows: 1, created: 1 });
    expect(byCode(await sitesOf(manager), '300701')?.shape.coordinates).toEqual([-121.5, 38.5]);
  });

  it("matches codes within the agency only: another agency's site with the same code is untouched", async () => {
    const theirs = `${HEADER}\n300801,Neighbor's own,39.1,-122.1,1,,,\n`;
    expect((await importFile(theirs, { cookie: neighbor })).json<Answer>().created).toBe(1);
    const before = byCode(await sitesOf(neighbor), '300801');
    const ours = `${HEADER}\n300801,Ours,38.5,-121.5,2,,,\n`;
    expect((await importFile(ours)).json<Answer>()).toMatchObject({ created: 1, updated: 0 });
    expect(byCode(await sitesOf(neighbor), '300801')).toEqual(before);
    expect(byCode(await sitesOf(manager), '300801')?.name).toBe('Ours');
  });

  it('refuses other media types with 415 and an unknown parameter with 422', async () => {
    const json = await importFile('{}', { type: 'application/json' });
    expect(json.status).toBe(415);
    expect(json.json()).toMatchObject({ error: { code: 'unsupported_media_type' } });
    const param = await stack.api('/api/import/sites?dryrun=1', {
      method: 'POST',
      cookie: manager,
      headers: { 'content-type': 'text/csv' },
      body: `${HEADER}\n`,
    });
    expect(param.status).toBe(422);
  });
});
