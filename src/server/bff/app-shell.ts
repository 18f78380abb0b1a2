import { existsSync, readdirSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { COMPRESSED_SUFFIXES, uncompressedName } from './compressed-copies';

/** Files that must be revalidated on every load, so a new version of the app is found. */
function mustRevalidate(name: string): boolean {
  return (
    name === 'index.html' ||
    name === 'sw.js' ||
    name === 'registerSW.js' ||
    name === 'manifest.webmanifest' ||
    /^workbox-[\w-]+\.js$/.test(name)
  );
}

/** `file`'s path under `root` with forward slashes, as in a URL ('assets/x.js'). */
const pathInBuild = (root: string, file: string) => relative(root, file).split(sep).join('/');

/** `file` is what was sent: a compressed copy (`sw.js.br`) is cached as the file it encodes. */
function cacheControlFor(root: string, file: string): string {
  const rel = uncompressedName(pathInBuild(root, file));
  // Vite puts a content hash in every name under assets/: a new build never reuses a name.
  if (rel.startsWith('assets/')) return 'public, max-age=31536000, immutable';
  if (mustRevalidate(basename(rel))) return 'no-cache';
  return 'public, max-age=3600';
}

/** The built app as the BFF serves it (appShell). */
export type AppShell = {
  /** Answers a client route with index.html, so deep links work. */
  serveIndex(reply: FastifyReply): FastifyReply;
  /**
   * Whether a request (its method and path, without the query) is for a client route: a
   * GET/HEAD outside /api whose last segment has no file extension, and not a directory of the
   * build (`/assets`, `/icons/`), which is answered 404 as a missing file under it is.
   */
  isClientRoute(method: string, path: string): boolean;
};

/**
 * Serves the built app from `root` (dist/): its files, and what answers client routes (paths
 * that are not /api and not files). Null when there is no build.
 */
export async function appShell(
  app: FastifyInstance,
  root: string | null,
): Promise<AppShell | null> {
  if (!root || !existsSync(root)) return null;
  await app.register(fastifyStatic, {
    root,
    // A route per file of the build, listed once at start (a new build means a restart): with a
    // wildcard route, every request for a file read its directories first (a readdir per path
    // segment, to refuse another spelling of a path), the assets' ~180 entries each time.
    wildcard: false,
    // The build's compressed copies (compressed-copies.ts) go to a browser that accepts their
    // encoding, with `Vary: Accept-Encoding`; they are not files of their own.
    preCompressed: true,
    // Source maps stay on the server (they are built to read a stack trace from the field): served,
    // they would give anyone the app's whole source, comments and paths included.
    globIgnore: [...COMPRESSED_SUFFIXES.map((suffix) => `**/*${suffix}`), '**/*.map'],
    index: false,
    cacheControl: false,
    dotfiles: 'ignore',
    setHeaders: (reply, path) => {
      reply.header('cache-control', cacheControlFor(root, path));
    },
  });
  if (!existsSync(`${root}/index.html`)) return null;
  const serveIndex = (reply: FastifyReply) =>
    reply.header('cache-control', 'no-cache').sendFile('index.html');
  // The root is a directory to the static handler (index: false): answer it as a client route.
  app.get('/', (_req, reply) => serveIndex(reply));
  const directories = buildDirectories(root);
  return {
    serveIndex,
    isClientRoute(method, path) {
      return (
        isRouteShaped(method, path) &&
        !directories.has(path.endsWith('/') ? path.slice(0, -1) : path)
      );
    },
  };
}

/** Every directory of the build outside dot-directories, as a URL path ('/assets', '/a/b'). */
function buildDirectories(root: string): Set<string> {
  return new Set(
    readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `/${pathInBuild(root, join(entry.parentPath, entry.name))}`)
      .filter((path) => !path.split('/').some((segment) => segment.startsWith('.'))),
  );
}

/** A GET/HEAD outside /api whose last segment has no file extension. */
function isRouteShaped(method: string, path: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (path === '/api' || path.startsWith('/api/')) return false;
  const last = path.slice(path.lastIndexOf('/') + 1);
  return !last.includes('.');
}
