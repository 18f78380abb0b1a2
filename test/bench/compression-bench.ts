/**
 * Compressed answers (issue 38 item 2): bytes on the wire and time for a tablet's first pull of
 * 20,000 sites (the site list, 1,000 a page) and for a report, with and without compression
 * (Accept-Encoding "br, gzip" as Chromium sends it, or identity), on loopback and through a TCP
 * proxy that emulates one bar of signal (1.6 Mbit/s each way, 150 ms latency). The records
 * service and the BFF run in this process on in-memory PGlite, as `npm start` serves them.
 */
import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { startBff } from '../../src/server/bff/app';
import { openDatabase } from '../../src/server/db/open-database';
import { refreshStatistics } from '../../src/server/db/refresh-statistics';
import { buildRecords } from '../../src/server/records/app';
import { seedDemoAgencies } from '../../src/server/records/seed/seed-demo-agencies';
import { seedLookups } from '../../src/server/records/seed/seed-lookups';
import { growSeasons } from './grow-seasons';
import { growSites } from './grow-sites';
import type { BenchRow } from './run';

const SITES = 20_000;
const PAGE = 1000;
const PASSWORD = 'bench-password-compression';
const LINK_BITS_PER_S = 1_600_000;
const LINK_LATENCY_MS = 150;

type Mode = { name: string; acceptEncoding: string };
const MODES: Mode[] = [
  { name: 'uncompressed', acceptEncoding: 'identity' },
  { name: 'br/gzip', acceptEncoding: 'gzip, deflate, br, zstd' },
];

/**
 * A TCP proxy that delivers each direction's bytes no faster than `bitsPerS`, each chunk
 * `latencyMs` after it was sent (a serialising link with a one-way delay).
 */
async function startSlowLink(target: string, bitsPerS: number, latencyMs: number) {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  // Chunks leave in order through one queue per direction (timers with different delays may
  // fire out of order once Node rounds them to whole milliseconds).
  const pace = (from: Socket, to: Socket) => {
    let linkFreeAt = 0;
    const queue: Array<{ chunk: Buffer; at: number }> = [];
    let timer: NodeJS.Timeout | null = null;
    const pump = () => {
      timer = null;
      while (queue.length > 0 && queue[0].at <= performance.now()) {
        if (!to.destroyed) to.write(queue.shift()!.chunk);
        else queue.shift();
      }
      if (queue.length > 0) timer = setTimeout(pump, queue[0].at - performance.now());
      else if (from.destroyed) to.destroy();
    };
    from.on('data', (chunk: Buffer) => {
      const now = performance.now();
      linkFreeAt = Math.max(now, linkFreeAt) + (chunk.length * 8 * 1000) / bitsPerS;
      queue.push({ chunk, at: linkFreeAt + latencyMs });
      timer ??= setTimeout(pump, queue[0].at - now);
    });
    from.on('close', () => {
      if (queue.length === 0) to.destroy();
    });
  };
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    pace(client, upstream);
    pace(upstream, client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** One GET as the tablet makes it; the body's bytes as they came (undici's request never decodes). */
async function get(base: string, path: string, cookie: string, acceptEncoding: string) {
  const res = await request(`${base}${path}`, {
    headers: { cookie, 'x-csrf': '1', origin: base, 'accept-encoding': acceptEncoding },
  });
  const body = Buffer.from(await res.body.arrayBuffer());
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode}`);
  return { bytes: body.length, encoding: res.headers['content-encoding'] };
}

export async function benchCompression(): Promise<BenchRow[]> {
  const db = await openDatabase({});
  const closers: Array<() => Promise<void>> = [() => db.close()];
  const rows: BenchRow[] = [];
  try {
    await seedLookups(db);
    await seedDemoAgencies(db, { password: PASSWORD });
    await growSites(db, SITES);
    const year = new Date().getUTCFullYear();
    await growSeasons(db, [year], 3_000);
    await refreshStatistics(db);
    const records = await buildRecords({ db });
    const recordsUrl = await records.listen({ port: 0, host: '127.0.0.1' });
    closers.unshift(() => records.close());
    // Bytes the records service wrote to the BFF (a socket's count stays readable once closed).
    const hopSockets = new Set<Socket>();
    records.server.on('connection', (s: Socket) => hopSockets.add(s));
    const hopBytes = () => [...hopSockets].reduce((n, s) => n + s.bytesWritten, 0);
    let hopPull: number | null = null;
    const bff = await startBff({ db, upstreamUrl: recordsUrl, staticRoot: null });
    closers.unshift(() => bff.close());
    const link = await startSlowLink(bff.url, LINK_BITS_PER_S, LINK_LATENCY_MS);
    closers.unshift(() => link.close());

    const signIn = await request(`${bff.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf': '1', origin: bff.url },
      body: JSON.stringify({ username: 'demo-manager', password: PASSWORD }),
    });
    await signIn.body.dump();
    const setCookie = [signIn.headers['set-cookie']].flat().find((c) => c?.startsWith('__Host'));
    if (!setCookie) throw new Error(`sign-in failed: ${signIn.statusCode}`);
    const cookie = setCookie.split(';', 1)[0];
    const report = `/api/reports/abundance?year=${year}&separate_by=species`;
    // The report's lists are read once and cached: the figures below are the answer's own.
    await get(bff.url, report, cookie, 'identity');

    for (const [where, base] of [
      ['loopback', bff.url],
      ['1.6 Mbit/s + 150 ms', link.url],
    ] as const) {
      for (const mode of MODES) {
        let bytes = 0;
        const hopBefore = hopBytes();
        let started = performance.now();
        const pages = Math.ceil(SITES / PAGE);
        for (let page = 1; page <= pages; page++) {
          const res = await get(
            base,
            `/api/v1/site?pageSize=${PAGE}&page=${page}&sort=id`,
            cookie,
            mode.acceptEncoding,
          );
          bytes += res.bytes;
        }
        const pullS = (performance.now() - started) / 1000;
        hopPull ??= hopBytes() - hopBefore;
        const note = `${pages} pages of ${PAGE}, one after another`;
        rows.push(
          {
            name: `first pull of ${SITES} sites, ${mode.name}, ${where}: bytes`,
            value: bytes / 1e6,
            unit: 'MB',
            note,
          },
          {
            name: `first pull of ${SITES} sites, ${mode.name}, ${where}: time`,
            value: pullS,
            unit: 's',
            ...(where === 'loopback' || mode.name === 'uncompressed'
              ? {}
              : { goal: { atMost: 30 } }),
            note,
          },
        );
        started = performance.now();
        const answer = await get(base, report, cookie, mode.acceptEncoding);
        rows.push(
          {
            name: `abundance report by species, ${mode.name}, ${where}: bytes`,
            value: answer.bytes / 1e3,
            unit: 'kB',
          },
          {
            name: `abundance report by species, ${mode.name}, ${where}: time`,
            value: performance.now() - started,
            unit: 'ms',
          },
        );
      }
    }
    // The BFF asks for br/gzip on every upstream read, whatever the tablet asks.
    rows.push({
      name: `records service → BFF: bytes for one pull of ${SITES} sites`,
      value: (hopPull ?? 0) / 1e6,
      unit: 'MB',
      note: 'compare: the uncompressed pull above',
    });
  } finally {
    for (const close of closers) await close().catch(() => undefined);
  }
  return rows;
}
