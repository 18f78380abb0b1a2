import { describe, expect, it } from 'vitest';
import { tileCredit } from '../../../src/server/bff/info-routes';

describe('the map’s credit line', () => {
  it('credits OpenStreetMap on its own servers, the office’s text when given, else the tile host', () => {
    expect(tileCredit({ tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png' })).toBe(
      '© OpenStreetMap contributors',
    );
    expect(tileCredit({ tileUrl: 'https://{s}.tiles.example.org/{z}/{x}/{y}.png' })).toBe(
      'Map tiles: tiles.example.org',
    );
    expect(
      tileCredit({
        tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
        tileAttribution: '© County GIS',
      }),
    ).toBe('© County GIS');
  });
});
