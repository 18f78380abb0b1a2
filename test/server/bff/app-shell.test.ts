import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBff, type RunningBff } from '../../../src/server/bff/app';
import { writeCompressedCopies } from '../../../src/server/bff/compressed-copies';
import { SESSION_COOKIE, SessionStore } from '../../../src/server/bff/session-store';
import type { Database } from '../../../src/server/db/database';
import { openTestDatabase } from '../helpers/test-database';
import { http } from './helpers/http';

const TILE_URL = 'https://{s}.tiles.example.org/{z}/{x}/{y}.png';
let db: Database;
let dist: string;
let bff: RunningBff;

/** A script as the build writes one: long, and repetitive enough to shrink. */
const bigScript = (name: string) =>
  Array.from({ length: 400 }, (_, i) => `export const ${name}${i} = () => "${name} ${i}";`).join(
    '\n',
  );
/** Chromium's Accept-Encoding. */
const CHROMIUM_ENCODINGS = 'gzip, deflate, br, zstd';

/** GET `path` from the BFF accepting `acceptEncoding` (none if absent): the body as sent. */
async function getBytes(path: string, acceptEncoding?: string) {
  const res = await request(`${bff.url}${path}`, {
    headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
  });
  return {
    status: res.statusCode,
    headers: res.headers,
    body: Buffer.from(await res.body.arrayBuffer()),
  };
}
/** An inline script as the build writes one into index.html (the sign-in screen's gate). */
const GATE = "document.documentElement.classList.add('gate')";
const GATE_HASH = `'sha256-${createHash('sha256').update(GATE).digest('base64')}'`;

/** A file of the build as written. */
const built = (path: string) => readFileSync(join(dist, ...path.split('/')));

beforeAll(async () => {
  db = await openTestDatabase();
  dist = mkdtempSync(join(tmpdir(), 'trapline-dist-'));
  mkdirSync(join(dist, 'assets'));
  mkdirSync(join(dist, 'icons'));
  writeFileSync(
    join(dist, 'index.html'),
    `<!doctype html><title>Trapline</title><script>${GATE}</script><script type="module" src="/assets/index-Bx1.js"></script>`,
  );
  writeFileSync(join(dist, 'assets', 'index-Bx1.js'), 'console.log(1)');
  writeFileSync(join(dist, 'assets', 'index-C9.css'), 'body{}');
  writeFileSync(join(dist, 'assets', 'screen-Dx2.js'), bigScript('screen'));
  writeFileSync(
    join(dist, 'assets', 'screen-Dx2.js.map'),
    JSON.stringify({ version: 3, sources: ['../../src/client/secret-path.tsx'], mappings: 'AAAA' }),
  );
  writeFileSync(join(dist, 'sw.js'), `self.x=1;\n${bigScript('precache')}`);
  writeFileSync(join(dist, 'workbox-5a1b2c.js'), 'self.y=1');
  writeFileSync(join(dist, 'manifest.webmanifest'), '{"name":"Trapline"}');
  writeFileSync(join(dist, 'icons', 'icon-192.png'), 'png');
  await writeCompressedCopies(dist);
  bff = await startBff({
    db,
    upstreamUrl: 'http://127.0.0.1:9',
    staticRoot: dist,
    tileUrl: TILE_URL,
  });
});
afterAll(async () => {
  await bff?.close();
  await db?.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('the app shell', () => {
  it('serves hashed assets as immutable for a year', async () => {
    for (const file of ['/assets/index-Bx1.js', '/assets/index-C9.css']) {
      const res = await http(`${bff.url}${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers['cache-control'], file).toBe('public, max-age=31536000, immutable');
    }
  });

  it('makes the browser revalidate index.html, the service worker, workbox and the manifest', async () => {
    for (const file of ['/index.html', '/sw.js', '/workbox-5a1b2c.js', '/manifest.webmanifest']) {
      const res = await http(`${bff.url}${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers['cache-control'], file).toBe('no-cache');
    }
  });

  it('answers client routes with index.html, but not /api paths or missing files', async () => {
    for (const route of ['/', '/sites', '/collections/new', '/pools/12/tests?tab=1']) {
      const res = await http(`${bff.url}${route}`);
      expect(res.status, route).toBe(200);
      expect(res.text, route).toBe(readFileSync(join(dist, 'index.html'), 'utf8'));
      expect(res.headers['cache-control'], route).toBe('no-cache');
      expect(String(res.headers['content-type']), route).toMatch(/text\/html/);
    }
    for (const path of ['/assets/index-gone.js', '/assets/', '/assets', '/icons/']) {
      const missing = await http(`${bff.url}${path}`);
      expect(missing.status, path).toBe(404);
    }
    const api = await http(`${bff.url}/api/nothing`, { headers: { 'x-csrf': '1' } });
    expect(api.status).toBe(404);
    expect(api.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  it("never serves the source maps the build writes (the app's source stays on the server)", async () => {
    for (const encoding of [undefined, CHROMIUM_ENCODINGS, 'gzip']) {
      const res = await getBytes('/assets/screen-Dx2.js.map', encoding);
      expect(res.status, encoding).toBe(404);
      expect(res.body.toString('latin1')).not.toMatch(/secret-path|mappings/);
    }
    const head = await request(`${bff.url}/assets/screen-Dx2.js.map`, { method: 'HEAD' });
    await head.body.dump();
    expect(head.statusCode).toBe(404);
  });

  it('sends the build compressed to a browser that accepts it, the same bytes once decoded', async () => {
    const raw = built('/assets/screen-Dx2.js');
    const get = (acceptEncoding?: string) => getBytes('/assets/screen-Dx2.js', acceptEncoding);
    const br = await get(CHROMIUM_ENCODINGS);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.length).toBeLessThan(raw.length / 4);
    expect(brotliDecompressSync(br.body).equals(raw)).toBe(true);
    expect(String(br.headers['content-type'])).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);

    const gz = await get('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(raw)).toBe(true);

    const plain = await get();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(raw)).toBe(true);

    // A file too small to gain from a copy, and an image, go as they are.
    for (const path of ['/assets/index-Bx1.js', '/icons/icon-192.png']) {
      const res = await getBytes(path, CHROMIUM_ENCODINGS);
      expect(res.body.toString('utf8'), path).toBe(built(path).toString('utf8'));
      expect(res.headers['content-encoding'], path).toBeUndefined();
    }
  });

  it('keeps the service worker and index.html revalidated when it sends them compressed', async () => {
    const sw = await getBytes('/sw.js', CHROMIUM_ENCODINGS);
    expect(sw.status).toBe(200);
    expect(sw.headers['cache-control']).toBe('no-cache');
    expect(sw.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(sw.body).equals(built('/sw.js'))).toBe(true);

    const index = await getBytes('/sites/12', CHROMIUM_ENCODINGS);
    expect(index.status).toBe(200);
    expect(index.headers['cache-control']).toBe('no-cache');
    expect(String(index.headers['content-type'])).toMatch(/text\/html/);
  });

  it('serves the compressed copies only as encodings of their file, not as files of their own', async () => {
    expect(existsSync(join(dist, 'assets', 'screen-Dx2.js.br'))).toBe(true);
    for (const path of ['/assets/screen-Dx2.js.br', '/assets/screen-Dx2.js.gz', '/sw.js.br']) {
      const res = await http(`${bff.url}${path}`);
      expect(res.status, path).toBe(404);
    }
  });

  it('tells the signed-in app the tile URL at run time', async () => {
    // The upstream is unreachable here: the session is stored as a sign-in would store it.
    const id = await new SessionStore(db).create('upstream-token', {
      user: { id: 1, username: 'demo-tech' },
      agency: { id: 1, name: 'Demo' },
      expiresAt: new Date(Date.now() + 3600_000).toISOString(),
    });
    const res = await http(`${bff.url}/api/config`, {
      headers: { 'x-csrf': '1', cookie: `${SESSION_COOKIE}=${id}` },
    });
    expect(res.json()).toEqual({
      tileUrl: TILE_URL,
      // Not OpenStreetMap's server: the map is not credited to OpenStreetMap unless the office says.
      tileAttribution: 'Map tiles: tiles.example.org',
      tileBulkDownload: false,
    });
  });

  it('reports liveness and an unreachable upstream on /api/health', async () => {
    const res = await http(`${bff.url}/api/health`);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', upstream: 'unreachable' });
  });
});

describe('security headers', () => {
  it("sends a CSP allowing only index.html's own inline script, with tiles from any https or loopback server and no host pinned", async () => {
    for (const path of ['/', '/assets/index-Bx1.js', '/api/health']) {
      const res = await http(`${bff.url}${path}`);
      const csp = String(res.headers['content-security-policy']);
      const directives = Object.fromEntries(
        csp.split(';').map((d) => {
          const [name, ...values] = d.trim().split(/\s+/);
          return [name, values];
        }),
      );
      // WebAssembly from 'self' (the scanner) compiles; no JavaScript eval, and no inline script
      // but the build's own in index.html (the sign-in screen's gate), by its hash.
      expect(directives['script-src'], path).toEqual(["'self'", "'wasm-unsafe-eval'", GATE_HASH]);
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
      const tiles = ['https:', 'http://127.0.0.1:*', 'http://localhost:*'];
      expect(directives['connect-src']).toEqual(["'self'", ...tiles]);
      expect(directives['img-src']).toEqual(["'self'", 'data:', ...tiles]);
      // A tablet keeps this header with its copy of the page: TILE_URL's host is never in it.
      expect(csp).not.toContain('tiles.example.org');
      expect(directives['worker-src']).toEqual(["'self'"]);
      expect(directives['frame-ancestors']).toEqual(["'none'"]);
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['permissions-policy']).toBe('geolocation=(self), camera=(self)');
      expect(res.headers['strict-transport-security'], 'no HSTS over plain HTTP').toBeUndefined();
    }
  });

  it('sends HSTS when served over TLS', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trapline-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
      ],
      { stdio: 'ignore' },
    );
    const tls = await startBff({
      db,
      upstreamUrl: 'http://127.0.0.1:9',
      staticRoot: dist,
      https: { cert: readFileSync(join(dir, 'cert.pem')), key: readFileSync(join(dir, 'key.pem')) },
    });
    const dispatcher = new Agent({ connect: { rejectUnauthorized: false } });
    try {
      const res = await request(`${tls.url}/`, { dispatcher });
      await res.body.text();
      expect(tls.url).toMatch(/^https:/);
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    } finally {
      await dispatcher.close();
      await tls.close();
      // A private key, if a throwaway one: not left in the machine's temporary directory.
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
