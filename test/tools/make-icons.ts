/**
 * Generates the app icons (public/icons/*.png) with nothing but zlib: a dark green tile with a
 * white target ring (a trap seen from above) and a centre dot. Run: npx tsx test/tools/make-icons.ts
 * The maskable icon keeps its drawing inside the central 80 % safe zone and fills the whole square.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

type Rgba = [number, number, number, number];
const GREEN: Rgba = [0x14, 0x53, 0x2d, 255];
const WHITE: Rgba = [255, 255, 255, 255];
const CLEAR: Rgba = [0, 0, 0, 0];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** PNG (RGBA, 8 bit) from a pixel function; 4×4 supersampling smooths the edges. */
export function png(size: number, pixel: (x: number, y: number) => Rgba): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4); // filter byte 0 (none)
    for (let x = 0; x < size; x++) {
      const acc = [0, 0, 0, 0];
      for (let sy = 0; sy < 4; sy++)
        for (let sx = 0; sx < 4; sx++) {
          const p = pixel((x + (sx + 0.5) / 4) / size, (y + (sy + 0.5) / 4) / size);
          for (let i = 0; i < 4; i++) acc[i] += p[i];
        }
      for (let i = 0; i < 4; i++) row[1 + x * 4 + i] = Math.round(acc[i] / 16);
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The drawing in unit coordinates, scaled by `scale` around the centre. */
function design(scale: number, rounded: boolean) {
  return (x: number, y: number): Rgba => {
    const corner = 0.18;
    if (rounded) {
      const cx = Math.min(Math.max(x, corner), 1 - corner);
      const cy = Math.min(Math.max(y, corner), 1 - corner);
      if (Math.hypot(x - cx, y - cy) > corner) return CLEAR;
    }
    const r = Math.hypot(x - 0.5, y - 0.5) / scale;
    if (r < 0.09) return WHITE; // centre dot
    if (r > 0.2 && r < 0.28) return WHITE; // inner ring
    if (r > 0.36 && r < 0.42) return WHITE; // outer ring
    return GREEN;
  };
}

const out = join(process.cwd(), 'public', 'icons');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'icon-192.png'), png(192, design(1, true)));
writeFileSync(join(out, 'icon-512.png'), png(512, design(1, true)));
writeFileSync(join(out, 'icon-maskable-512.png'), png(512, design(0.8, false)));
console.log(`icons written to ${out}`);
