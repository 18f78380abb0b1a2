import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tilePng } from '../../helpers/tile-png';

export type TileServer = {
  template: string;
  /** Paths asked for, in order. */
  requests: string[];
  /** While true, answers wait for release(): shows how many tiles are asked for at once. */
  hold: boolean;
  held: (() => void)[];
  release(): void;
  /** Paths answered 503 the first time they are asked for (a busy server). */
  failFirst: (z: number, x: number, y: number) => boolean;
  close(): Promise<void>;
};

/** A tile server on loopback answering /{z}/{x}/{y}.png with generated tiles, CORS open as OSM's. */
export async function startTileServer(): Promise<TileServer> {
  const failed = new Set<string>();
  const tiles: TileServer = {
    template: '',
    requests: [],
    hold: false,
    held: [],
    release() {
      tiles.hold = false;
      for (const answer of tiles.held.splice(0)) answer();
    },
    failFirst: () => false,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const answer = (res: ServerResponse, path: string) => {
    const m = /^\/(\d+)\/(\d+)\/(\d+)\.png$/.exec(path);
    res.setHeader('access-control-allow-origin', '*');
    if (!m) return res.writeHead(404).end();
    const [z, x, y] = m.slice(1).map(Number);
    if (tiles.failFirst(z, x, y) && !failed.has(path)) {
      failed.add(path);
      return res.writeHead(503).end();
    }
    // Not kept by the browser's HTTP cache: every tile the app fetches reaches this server and
    // is counted (real tile servers allow caching; the app works either way).
    res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' });
    res.end(tilePng(z, x, y));
  };
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    tiles.requests.push(path);
    if (tiles.hold) tiles.held.push(() => answer(res, path));
    else answer(res, path);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  tiles.template = `http://127.0.0.1:${(server.address() as AddressInfo).port}/{z}/{x}/{y}.png`;
  return tiles;
}
