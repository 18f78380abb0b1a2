import { crc32, deflateSync } from 'node:zlib';

/**
 * A 256 px tile (PNG, RGB): one colour from the tile's place with a little seeded noise, so it
 * weighs what a real map tile does (~15-20 kB) and the storage figures mean something.
 * The same bytes every time for a place: made once per process (compressing one took ~4 ms, and
 * the map-area tests serve the same area's tiles again on every download, pause and retry).
 */
export function tilePng(z: number, x: number, y: number): Buffer {
  const key = `${z}/${x}/${y}`;
  let png = made.get(key);
  if (!png) {
    png = makeTilePng(z, x, y);
    made.set(key, png);
  }
  return png;
}

const made = new Map<string, Buffer>();

function makeTilePng(z: number, x: number, y: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(256, 0);
  header.writeUInt32BE(256, 4);
  header.set([8, 2, 0, 0, 0], 8);
  let seed = (z * 73856093) ^ (x * 19349663) ^ (y * 83492791);
  const noise = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed >>> 30;
  };
  const base = tileColour(z, x, y);
  const pixels = Buffer.alloc(256 * (1 + 256 * 3));
  for (let row = 0; row < 256; row++) {
    const start = row * (1 + 256 * 3);
    for (let i = 0; i < 256; i++) {
      pixels.set([base[0] + noise(), base[1], base[2]], start + 1 + i * 3);
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The colour of tilePng(z, x, y) (its red channel has up to +3 of noise): tells tiles apart. */
export function tileColour(z: number, x: number, y: number): [number, number, number] {
  return [(x * 37) % 200, (y * 53) % 200, (z * 20) % 200];
}
