import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FetchSource, PMTiles } from 'pmtiles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '../../../src/server/bff/env';
import { pmtilesArchive } from '../../helpers/write-pmtiles';
import { startBffStack, type BffStack } from './helpers/bff-stack';

/** Tiles whose bytes say which tile they are (the route serves bytes; the reader finds them). */
const TILES = [
  { z: 0, x: 0, y: 0 },
  { z: 1, x: 0, y: 1 },
  { z: 1, x: 1, y: 0 },
  { z: 2, x: 3, y: 2 },
].map((t) => ({ ...t, data: Buffer.from(`tile ${t.z}/${t.x}/${t.y} `.repeat(40)) }));

let dir: string;
let file: string;
let archive: Buffer;
let stack: BffStack;
let url: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'trapline-archive-'));
  file = join(dir, 'area.pmtiles');
  archive = pmtilesArchive(TILES);
  writeFileSync(file, archive);
  stack = await startBffStack({ bff: { tileArchive: file } });
  url = `${stack.url}/map/archive.pmtiles`;
});

afterAll(async () => {
  await stack?.close();
  rmSync(dir, { recursive: true, force: true });
});

const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());

describe('GET /map/archive.pmtiles', () => {
  it('tells the signed-in app where the archive is in /api/config', async () => {
    const cookie = await stack.signIn();
    const config = (await stack.api('/api/config', { cookie })).json();
    expect(config.tileArchive).toBe('/map/archive.pmtiles');
    const plain = await stack.startSibling({ tileArchive: undefined });
    const res = await fetch(`${plain.url}/api/config`, {
      headers: { cookie, 'x-csrf': '1', origin: plain.url },
    });
    expect(await res.json()).not.toHaveProperty('tileArchive');
    expect((await fetch(`${plain.url}/map/archive.pmtiles`)).status).toBe(404);
  });

  it('serves the whole archive without a session, with its ETag and Accept-Ranges', async () => {
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(res.headers.get('content-length')).toBe(String(archive.length));
    expect((await bytes(res)).equals(archive)).toBe(true);
  });

  it('answers a range with 206 and exactly those bytes', async () => {
    const res = await fetch(url, { headers: { range: 'bytes=0-126' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 0-126/${archive.length}`);
    expect((await bytes(res)).equals(archive.subarray(0, 127))).toBe(true);

    // The reader's first read asks for 16 KiB: a smaller archive answers what it has.
    const first = await fetch(url, { headers: { range: 'bytes=0-16383' } });
    expect(first.status).toBe(206);
    expect(first.headers.get('content-range')).toBe(
      `bytes 0-${archive.length - 1}/${archive.length}`,
    );
    expect((await bytes(first)).equals(archive)).toBe(true);

    const tail = await fetch(url, { headers: { range: 'bytes=-10' } });
    expect(tail.status).toBe(206);
    expect((await bytes(tail)).equals(archive.subarray(archive.length - 10))).toBe(true);
    const from = await fetch(url, { headers: { range: `bytes=${archive.length - 5}-` } });
    expect((await bytes(from)).equals(archive.subarray(archive.length - 5))).toBe(true);
  });

  it('refuses a range past the end with 416, the size and the error body', async () => {
    const res = await fetch(url, { headers: { range: `bytes=${archive.length}-` } });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe(`bytes */${archive.length}`);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('bad_request');
    expect(body.error.message).toContain(`${archive.length} bytes`);
  });

  it('sends the whole archive for a Range it does not serve (several ranges, other units)', async () => {
    for (const range of ['bytes=0-1,5-9', 'pages=1-2', 'bytes=9-2']) {
      const res = await fetch(url, { headers: { range } });
      expect(res.status, range).toBe(200);
      expect((await bytes(res)).length, range).toBe(archive.length);
    }
  });

  it('answers 304 for the copy the browser has, and the whole file for If-Range of another', async () => {
    const etag = (await fetch(url, { method: 'HEAD' })).headers.get('etag')!;
    const same = await fetch(url, { headers: { 'if-none-match': etag } });
    expect(same.status).toBe(304);
    const stale = await fetch(url, { headers: { range: 'bytes=0-9', 'if-range': '"other"' } });
    expect(stale.status).toBe(200);
    const fresh = await fetch(url, { headers: { range: 'bytes=0-9', 'if-range': etag } });
    expect(fresh.status).toBe(206);
  });

  it('is read by the pmtiles reader: each tile by its z/x/y, nothing for a tile not in it', async () => {
    const reader = new PMTiles(new FetchSource(url));
    const header = await reader.getHeader();
    expect([header.minZoom, header.maxZoom, header.tileType]).toEqual([0, 2, 2]);
    for (const t of TILES) {
      const tile = await reader.getZxy(t.z, t.x, t.y);
      expect(Buffer.from(tile!.data).equals(t.data), `${t.z}/${t.x}/${t.y}`).toBe(true);
    }
    expect(await reader.getZxy(2, 0, 0)).toBeUndefined();
  });

  it('gives a replaced archive a new ETag', async () => {
    const before = (await fetch(url, { method: 'HEAD' })).headers.get('etag');
    const later = new Date(Date.now() + 60_000);
    utimesSync(file, later, later);
    const after = (await fetch(url, { method: 'HEAD' })).headers.get('etag');
    expect(after).not.toBe(before);
  });
});

describe('TILE_PMTILES', () => {
  it('names a file that exists, or start-up says it is missing', () => {
    expect(parseEnv({ TILE_PMTILES: file }).TILE_PMTILES).toBe(file);
    expect(() => parseEnv({ TILE_PMTILES: join(dir, 'none.pmtiles') })).toThrow(
      /TILE_PMTILES: no file at/,
    );
  });
});
