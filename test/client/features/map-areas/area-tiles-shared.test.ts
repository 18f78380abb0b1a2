import { describe, expect, it } from 'vitest';
import { storePulledRows } from '../../../../src/client/sync/store-pulled-rows';
import { deleteSite } from '../../../../src/client/db/delete-site';
import { areaTileUrls, tilesOnlyIn } from '../../../../src/client/features/map-areas/area-tiles';
import { sitesExtent } from '../../../../src/client/features/map-areas/sites-extent';
import { pulledSite, tabletDb } from '../helpers/records';

// OpenStreetMap's template: no {r}, so a high-density screen asks for the very same URLs.
const OSM = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
const DISTRICT = { west: -121.9, south: 38.4, east: -121.3, north: 38.75 };
const shape = { bbox: DISTRICT, minZoom: 10, maxZoom: 12, tileUrl: OSM };

describe('saved areas sharing tiles', () => {
  it('keeps on deletion the tiles another area stores under the same URLs, whatever the screen density it was saved on', () => {
    // Saved once on the laptop at 125 % (retina) and once at 100 %: the same tiles, same URLs.
    const onRetina = { ...shape, retina: true };
    const onPlain = { ...shape, retina: false };
    expect(areaTileUrls(onRetina)).toEqual(areaTileUrls(onPlain));
    expect(tilesOnlyIn(onRetina, [onPlain])).toEqual([]);
  });

  it('still frees the tiles of a template whose high-density tiles have URLs of their own', () => {
    const template = 'https://tiles.example.org/{z}/{x}/{y}{r}.png';
    const retina = { ...shape, tileUrl: template, retina: true };
    const plain = { ...shape, tileUrl: template, retina: false };
    expect(tilesOnlyIn(retina, [plain])).toEqual(areaTileUrls(retina));
  });
});

describe('the area around the agency’s sites', () => {
  it('leaves out a deleted site: neither counted nor framed', async () => {
    const db = await tabletDb();
    await storePulledRows(db, Date.now(), 'site', [
      pulledSite({ id: 501, code: '104233', shape: pulledShape(-121.49, 38.58) }),
      pulledSite({
        id: 502,
        code: '104234',
        name: 'Putah Creek S',
        shape: pulledShape(-121.5, 38.59),
      }),
      // Far away (a typo the manager deleted): it must not stretch the area to Nevada.
      pulledSite({ id: 503, code: '104235', name: 'Typo site', shape: pulledShape(-117.5, 39.5) }),
    ]);
    const typo = (await db.sites.where('serverId').equals(503).first())!;
    await deleteSite(db, typo.localId);
    expect((await db.sites.get(typo.localId))?.deleted).toBe(true);

    const extent = await sitesExtent(db);
    expect(extent?.sites).toBe(2);
    expect(extent!.bbox.east).toBeLessThan(-121.4);
    expect(extent!.bbox.north).toBeLessThan(38.7);
  });
});

function pulledShape(lon: number, lat: number) {
  return { type: 'Point', coordinates: [lon, lat] };
}
