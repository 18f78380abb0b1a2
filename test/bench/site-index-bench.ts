/**
 * The site index's build (SiteIndexCore.load, in the site-index worker), which the Sites screen
 * waits for when it first opens: 20,000 and 100,000 stored site rows as a pull stores them (the
 * server's record twice, as `data` and `server`), placed by `growSites`' formula. Beside it the
 * reference measured in the same run: Supercluster's load of the same points alone, the least an
 * index that clusters must do. And a rebuild after one site changed (a drain's acknowledgement,
 * a pull's batch while Sites is open). In Node, without the worker's read from IndexedDB (at 20,000
 * sites in Chromium its structured-clone deserialisation alone took ~0.5 s at 4x CPU).
 */
import Supercluster from 'supercluster';
import { SiteIndexCore, type SiteRecordLike } from '../../src/client/lib/site-index-core';
import type { BenchRow } from './run';

const ROUNDS = 5;

/** `count` synced sites as the pull stores them, in key (localId) order as IndexedDB reads them. */
function storedSites(count: number): SiteRecordLike[] {
  const rows: SiteRecordLike[] = [];
  for (let g = 1; g <= count; g += 1) {
    const lon = -122.1 + 1.2 * ((g * 0.6180339887498949) % 1);
    const lat = 38.2 + 0.9 * ((g * 0.7548776662466927) % 1);
    const code = String(100_000 + g);
    const server = {
      id: g,
      agency: 1,
      user_id: 2,
      code,
      name: `Scale site ${g}`,
      coordinate_precision: 1,
      shape: { type: 'Point', coordinates: [lon, lat] },
      add_date: '2026-03-01T08:00:00.000Z',
      updated: '2026-03-01T08:00:00.000Z',
      active_date: null,
      deactive_date: null,
      comments: null,
    };
    rows.push({
      localId: `${String((g * 7919) % count).padStart(8, '0')}-${g}`,
      code,
      name: server.name,
      syncState: 'synced',
      data: { ...server, shape: { ...server.shape } },
      server,
    });
  }
  return rows.sort((a, b) => (a.localId < b.localId ? -1 : 1));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function timed(fn: () => void): number {
  const started = performance.now();
  fn();
  return performance.now() - started;
}

export async function benchSiteIndex(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const count of [20_000, 100_000]) {
    const sites = storedSites(count);
    const changed = sites.map((s, i) => (i === count >> 1 ? { ...s, name: 'Renamed pond' } : s));
    const build: number[] = [];
    const rebuild: number[] = [];
    const floor: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const index = new SiteIndexCore();
      build.push(timed(() => index.load(sites)));
      rebuild.push(timed(() => index.load(changed)));
      floor.push(
        timed(() =>
          new Supercluster({ extent: 256, radius: 72, maxZoom: 16, minPoints: 2 }).load(
            sites.map((s) => ({
              type: 'Feature' as const,
              properties: {},
              geometry: {
                type: 'Point' as const,
                coordinates: (s.data!.shape as { coordinates: [number, number] }).coordinates,
              },
            })),
          ),
        ),
      );
      await new Promise((resolve) => setImmediate(resolve));
    }
    const each = (v: number[]) => v.map((x) => x.toFixed(0)).join(', ');
    const label = count.toLocaleString('en-US');
    rows.push(
      {
        name: `site index, first build of ${label} sites`,
        value: median(build),
        unit: 'ms',
        note: `rounds: ${each(build)}`,
      },
      {
        name: `  reference: clustering the ${label} points alone`,
        value: median(floor),
        unit: 'ms',
        note: `rounds: ${each(floor)}`,
      },
      {
        name: `  first build ÷ clustering alone`,
        value: median(build) / median(floor),
        unit: 'x',
      },
      {
        name: `site index, rebuild after one of ${label} sites changed`,
        value: median(rebuild),
        unit: 'ms',
        note: `rounds: ${each(rebuild)}`,
      },
    );
  }
  return rows;
}
