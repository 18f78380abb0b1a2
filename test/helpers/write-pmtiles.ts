import { writeFile } from 'node:fs/promises';
import { zxyToTileId } from 'pmtiles';

export type ArchiveTile = { z: number; x: number; y: number; data: Buffer };

const HEADER_BYTES = 127;
/** The reader takes the header and the root directory in its first 16 KiB read. */
const FIRST_READ = 16_384;
const TILE_TYPE = { png: 2, jpeg: 3, webp: 4 } as const;

function varints(values: number[]): Buffer {
  const out: number[] = [];
  for (let v of values) {
    while (v >= 0x80) {
      out.push((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    out.push(v);
  }
  return Buffer.from(out);
}

/**
 * A PMTiles v3 archive for tests (spec: github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md):
 * the 127-byte header, one uncompressed root directory (no leaf directories: a test archive has
 * a few hundred tiles), the metadata JSON (`{}` unless given), then the tiles, each stored once,
 * in tile-id order.
 * The directory is entry count, tile-id deltas, run lengths (1), lengths, then offsets written
 * as offset + 1, or 0 where a tile follows the previous one.
 */
export function pmtilesArchive(
  tiles: ArchiveTile[],
  type: keyof typeof TILE_TYPE = 'png',
  meta: Record<string, unknown> = {},
): Buffer {
  const entries = tiles
    .map((t) => ({ ...t, id: zxyToTileId(t.z, t.x, t.y) }))
    .sort((a, b) => a.id - b.id);
  let offset = 0;
  const placed = entries.map((e) => {
    const at = offset;
    offset += e.data.length;
    return { ...e, offset: at };
  });
  const directory = Buffer.concat([
    varints([placed.length]),
    varints(placed.map((e, i) => e.id - (i === 0 ? 0 : placed[i - 1].id))),
    varints(placed.map(() => 1)),
    varints(placed.map((e) => e.data.length)),
    varints(
      placed.map((e, i) =>
        i > 0 && e.offset === placed[i - 1].offset + placed[i - 1].data.length ? 0 : e.offset + 1,
      ),
    ),
  ]);
  if (HEADER_BYTES + directory.length > FIRST_READ) {
    throw new Error('too many tiles for a root directory alone: write leaf directories');
  }
  const metadata = Buffer.from(JSON.stringify(meta));
  const data = Buffer.concat(placed.map((e) => e.data));
  const zooms = tiles.map((t) => t.z);
  const minZoom = Math.min(...zooms);
  const maxZoom = Math.max(...zooms);
  // Bounds: the whole world (the tiles say what is in it; the reader only checks the zooms).
  const [minLon, minLat, maxLon, maxLat] = [-180, -85, 180, 85];

  const header = Buffer.alloc(HEADER_BYTES);
  header.write('PMTiles', 0, 'ascii');
  header.writeUInt8(3, 7);
  const u64 = (value: number, at: number) => header.writeBigUInt64LE(BigInt(value), at);
  const rootOffset = HEADER_BYTES;
  const metadataOffset = rootOffset + directory.length;
  const dataOffset = metadataOffset + metadata.length;
  u64(rootOffset, 8);
  u64(directory.length, 16);
  u64(metadataOffset, 24);
  u64(metadata.length, 32);
  u64(dataOffset, 40); // leaf directories: none, an empty section
  u64(0, 48);
  u64(dataOffset, 56);
  u64(data.length, 64);
  u64(placed.length, 72); // addressed tiles
  u64(placed.length, 80); // tile entries
  u64(placed.length, 88); // tile contents
  header.writeUInt8(1, 96); // clustered: tiles in tile-id order
  header.writeUInt8(1, 97); // internal compression: none
  header.writeUInt8(1, 98); // tile compression: none
  header.writeUInt8(TILE_TYPE[type], 99);
  header.writeUInt8(minZoom, 100);
  header.writeUInt8(maxZoom, 101);
  header.writeInt32LE(Math.round(minLon * 1e7), 102);
  header.writeInt32LE(Math.round(minLat * 1e7), 106);
  header.writeInt32LE(Math.round(maxLon * 1e7), 110);
  header.writeInt32LE(Math.round(maxLat * 1e7), 114);
  header.writeUInt8(minZoom, 118);
  return Buffer.concat([header, directory, metadata, data]);
}

/** Writes pmtilesArchive(tiles, 'png', meta) to `path`. */
export async function writePmtiles(
  path: string,
  tiles: ArchiveTile[],
  meta: Record<string, unknown> = {},
): Promise<void> {
  await writeFile(path, pmtilesArchive(tiles, 'png', meta));
}
