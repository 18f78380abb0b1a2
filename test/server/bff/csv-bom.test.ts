import { request as undiciRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBffStack, type BffStack } from './helpers/bff-stack';

/**
 * Excel opens a CSV without a byte-order mark in the machine's legacy code page, so a site
 * named "Peña" reads "PeÃ±a" there. Every CSV the BFF makes starts with the UTF-8 BOM (EF BB BF);
 * GeoJSON never does (RFC 8259 forbids it).
 */
let stack: BffStack;
let manager: string;
const BOM = [0xef, 0xbb, 0xbf];
const NAME = 'Peña Arroyo – Año 2025';

/** The answer's bytes exactly as sent (no decoder in between to drop a BOM). */
async function bytesOf(path: string): Promise<{ status: number; bytes: Buffer }> {
  const res = await undiciRequest(`${stack.url}${path}`, {
    headers: { origin: stack.url, 'x-csrf': '1', cookie: manager, accept: '*/*' },
  });
  return { status: res.statusCode, bytes: Buffer.from(await res.body.arrayBuffer()) };
}

beforeAll(async () => {
  stack = await startBffStack();
  manager = await stack.signIn('demo-manager');
  const res = await stack.api('/api/v1/site', {
    method: 'POST',
    cookie: manager,
    body: {
      code: '733001',
      name: NAME,
      coordinate_precision: 1,
      shape: { type: 'Point', coordinates: [-121.49, 38.58] },
    },
  });
  expect(res.status, res.text).toBe(201);
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

describe('CSV files open in Excel with accents intact', () => {
  it('the sites export starts with the UTF-8 BOM and "Peña" round-trips', async () => {
    const { status, bytes } = await bytesOf('/api/export/sites.csv');
    expect(status).toBe(200);
    expect([...bytes.subarray(0, 3)]).toEqual(BOM);
    // After the mark, the header as scripts read it (stable machine names).
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    expect(text.startsWith('\uFEFFsite_id,')).toBe(true);
    expect(text).toContain(NAME);
  });

  it('every CSV export starts with the BOM', async () => {
    for (const file of ['collections.csv', 'pools.csv', 'pool-tests.csv']) {
      const { status, bytes } = await bytesOf(`/api/export/${file}`);
      expect(status, file).toBe(200);
      expect([...bytes.subarray(0, 3)], file).toEqual(BOM);
    }
  });

  it('the GeoJSON export has no BOM (JSON must not) and keeps "Peña"', async () => {
    const { status, bytes } = await bytesOf('/api/export/sites.geojson');
    expect(status).toBe(200);
    expect(bytes[0]).toBe('{'.charCodeAt(0));
    expect(bytes.toString('utf8')).toContain(NAME);
  });

  it("a report's CSV starts with the BOM, its JSON does not", async () => {
    const csv = await bytesOf('/api/reports/abundance?year=2025&format=csv');
    expect(csv.status).toBe(200);
    expect([...csv.bytes.subarray(0, 3)]).toEqual(BOM);
    expect(csv.bytes.subarray(3, 7).toString('utf8')).toBe('Year');
    const json = await bytesOf('/api/reports/abundance?year=2025');
    expect(json.status).toBe(200);
    expect(json.bytes[0]).toBe('{'.charCodeAt(0));
  });
});
