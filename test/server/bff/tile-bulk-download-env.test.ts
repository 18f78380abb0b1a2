import { describe, expect, it } from 'vitest';
import { parseEnv } from '../../../src/server/bff/env';

describe('TILE_BULK_DOWNLOAD', () => {
  it('is forbidden unless the operator says the tile server allows it', () => {
    expect(parseEnv({}).TILE_BULK_DOWNLOAD).toBe('forbidden');
    const env = parseEnv({
      TILE_URL: 'https://tiles.agency.example/{z}/{x}/{y}.png',
      TILE_BULK_DOWNLOAD: 'allowed',
    });
    expect(env.TILE_BULK_DOWNLOAD).toBe('allowed');
  });

  it('refuses bulk downloading from the OpenStreetMap tile server, whose policy forbids it', () => {
    expect(() => parseEnv({ TILE_BULK_DOWNLOAD: 'allowed' })).toThrow(
      /tile\.openstreetmap\.org forbids bulk downloading/,
    );
    expect(() =>
      parseEnv({
        TILE_URL: 'https://a.tile.openstreetmap.org/{z}/{x}/{y}.png',
        TILE_BULK_DOWNLOAD: 'allowed',
      }),
    ).toThrow(/TILE_BULK_DOWNLOAD/);
  });

  it('names the setting when its value is not understood', () => {
    expect(() => parseEnv({ TILE_BULK_DOWNLOAD: 'yes' })).toThrow(/TILE_BULK_DOWNLOAD/);
  });
});
