import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  cancelJob,
  dismissJob,
  pauseJob,
  startJob,
} from '../../../../src/client/features/map-areas/download-job';
import { MapAreasScreen } from '../../../../src/client/features/map-areas/map-areas-screen';
import { listAreas, type SavedArea } from '../../../../src/client/features/map-areas/saved-areas';
import { countTiles } from '../../../../src/client/features/map-areas/tile-math';
import { tilePng } from '../../../helpers/tile-png';
import { renderScreen, tabletDb } from '../helpers/records';

/**
 * Cache Storage as the browser keeps it, in memory (jsdom has none): entries by URL, each a body
 * and its headers, read back as a new Response every time.
 */
function memoryCaches() {
  const stores = new Map<string, Map<string, { body: ArrayBuffer; headers: [string, string][] }>>();
  const keyOf = (req: RequestInfo | URL) =>
    new URL(typeof req === 'string' ? req : req instanceof URL ? req.href : req.url, location.href)
      .href;
  const cacheOf = (entries: Map<string, { body: ArrayBuffer; headers: [string, string][] }>) => ({
    async match(req: RequestInfo | URL) {
      const hit = entries.get(keyOf(req));
      return hit ? new Response(hit.body.slice(0), { headers: hit.headers }) : undefined;
    },
    async put(req: RequestInfo | URL, res: Response) {
      const body = await res.arrayBuffer();
      entries.set(keyOf(req), { body, headers: [...res.headers.entries()] });
    },
    async delete(req: RequestInfo | URL) {
      return entries.delete(keyOf(req));
    },
    async keys() {
      return [...entries.keys()].map((url) => ({ url }));
    },
  });
  const storage = {
    async open(name: string) {
      if (!stores.has(name)) stores.set(name, new Map());
      return cacheOf(stores.get(name)!);
    },
    async has(name: string) {
      return stores.has(name);
    },
    async delete(name: string) {
      return stores.delete(name);
    },
    async match(req: RequestInfo | URL, options?: { cacheName?: string }) {
      const names = options?.cacheName ? [options.cacheName] : [...stores.keys()];
      for (const name of names) {
        const hit = await (await storage.open(name)).match(req);
        if (hit) return hit;
      }
      return undefined;
    },
    /** How many tiles a cache holds. */
    size(name: string) {
      return stores.get(name)?.size ?? 0;
    },
  };
  return storage;
}

type TileServer = {
  template: string;
  /** While true, answers wait for release(). */
  hold: boolean;
  release(): void;
  answered: number;
  /** Requests waiting for release(). */
  readonly waiting: number;
  close(): Promise<void>;
};

/** A tile server on loopback answering /{z}/{x}/{y}.png with generated tiles (~15 kB each). */
async function startTileServer(): Promise<TileServer> {
  const held: (() => void)[] = [];
  const tiles: TileServer = {
    template: '',
    hold: false,
    answered: 0,
    get waiting() {
      return held.length;
    },
    release() {
      tiles.hold = false;
      for (const answer of held.splice(0)) answer();
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer((req, res) => {
    const m = /^\/(\d+)\/(\d+)\/(\d+)\.png$/.exec(req.url ?? '');
    const answer = () => {
      res.setHeader('access-control-allow-origin', '*');
      if (!m) return res.writeHead(404).end();
      tiles.answered += 1;
      res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' });
      res.end(tilePng(Number(m[1]), Number(m[2]), Number(m[3])));
    };
    if (tiles.hold) held.push(answer);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  tiles.template = `http://127.0.0.1:${(server.address() as AddressInfo).port}/{z}/{x}/{y}.png`;
  return tiles;
}

/** Tiles come over loopback, but on a loaded machine a second is not always enough. */
const LOADED = { timeout: 10_000 };

// Davis and around: a handful of tiles at zoom 10–12.
const BBOX = { west: -121.8, south: 38.5, east: -121.6, north: 38.6 };

function areaOf(tileUrl: string, over: Partial<SavedArea> = {}): SavedArea {
  return {
    id: crypto.randomUUID(),
    name: 'Davis sloughs',
    bbox: BBOX,
    minZoom: 10,
    maxZoom: 12,
    tileUrl,
    retina: false,
    tiles: countTiles(BBOX, 10, 12),
    bytes: 0,
    savedAt: new Date().toISOString(),
    complete: false,
    ...over,
  };
}

// Each test downloads real tiles from a loopback server (dozens of requests): under the full
// suite's load that takes longer than the 5 s default; its waits allow 10 s (LOADED).
describe(
  'offline map areas: a download interrupted or deleted under way',
  { timeout: 30_000 },
  () => {
    let tiles: TileServer;
    let store: ReturnType<typeof memoryCaches>;

    beforeEach(async () => {
      localStorage.clear();
      tiles = await startTileServer();
      store = memoryCaches();
      vi.stubGlobal('caches', store);
      localStorage.setItem(
        'trapline.config',
        JSON.stringify({ tileUrl: tiles.template, tileBulkDownload: true }),
      );
    });

    afterEach(async () => {
      tiles.release();
      await cancelJob();
      dismissJob();
      await tiles.close();
    });

    it('deleting the area being downloaded stops it: the area does not come back as saved', async () => {
      const area = areaOf(tiles.template);
      tiles.hold = true;
      const downloading = startJob(area, 'new');
      const user = renderScreen(await tabletDb(), <MapAreasScreen />, '/map-areas');
      const list = await screen.findByRole('list', { name: 'Saved map areas' }, LOADED);
      await user.click(within(list).getByRole('button', { name: 'Delete Davis sloughs' }));
      await user.click(
        within(screen.getByRole('group', { name: 'Delete Davis sloughs?' })).getByRole('button', {
          name: 'Delete area',
        }),
      );
      await screen.findByText(/Davis sloughs deleted/, {}, LOADED);
      // The signal comes back: the tiles that were on their way arrive.
      tiles.release();
      await downloading;
      await waitFor(() => expect(listAreas()).toEqual([]), LOADED);
      expect(screen.getByText('No saved map areas yet on this tablet.')).toBeInTheDocument();
      expect(store.size('trapline-areas')).toBe(0);
    });

    it('pausing and stopping a refresh keeps the area’s size as it was', async () => {
      const area = areaOf(tiles.template);
      await startJob(area, 'new');
      const saved = listAreas()[0];
      expect(saved.complete).toBe(true);
      expect(saved.bytes).toBeGreaterThan(area.tiles * 1000);
      dismissJob();

      // Refresh: two tiles come, then the technician pauses (one bar of signal) and stops.
      tiles.hold = true;
      const refreshing = startJob(saved, 'refresh');
      await waitFor(() => expect(tiles.answered).toBe(area.tiles), LOADED);
      const before = tiles.answered;
      // Two of the refresh's tiles asked for before they are let through: on a loaded machine the
      // refresh may not have asked for them yet, and the answers below would never come.
      await waitFor(() => expect(tiles.waiting).toBeGreaterThanOrEqual(2), LOADED);
      tiles.release();
      tiles.hold = true;
      await waitFor(() => expect(tiles.answered).toBeGreaterThanOrEqual(before + 2), LOADED);
      pauseJob();
      await cancelJob();
      tiles.release();
      await Promise.race([refreshing, new Promise((r) => setTimeout(r, 100))]);

      const after = listAreas()[0];
      expect(after.complete).toBe(true);
      expect(after.bytes).toBe(saved.bytes);
    });

    it('storage full part-way: the area is listed as not complete with the bytes it already holds', async () => {
      // The tablet's storage takes five tiles, then refuses.
      const areas = await store.open('trapline-areas');
      const put = areas.put.bind(areas);
      let room = 5;
      areas.put = async (req, res) => {
        if (room === 0)
          throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        room -= 1;
        return put(req, res);
      };
      vi.spyOn(store, 'open').mockResolvedValue(areas);
      const area = areaOf(tiles.template);
      void startJob(area, 'new');
      renderScreen(await tabletDb(), <MapAreasScreen />, '/map-areas');
      expect(
        await screen.findByText(
          'Storage is full: delete a saved area or choose a smaller one.',
          {},
          LOADED,
        ),
      ).toBeInTheDocument();
      // The technician leaves the screen (or the tablet closes the page) with the download paused.
      const saved = listAreas()[0];
      expect(saved.complete).toBe(false);
      expect(saved.bytes).toBeGreaterThan(5 * 1000);
      const list = screen.getByRole('list', { name: 'Saved map areas' });
      expect(within(list).getByText(/Not complete/)).toBeInTheDocument();
      expect(within(list).queryByText(/· 0 kB ·/)).toBeNull();
    });
  },
);
