import { existsSync } from 'node:fs';
import { basename, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

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

function cacheControlFor(root: string, file: string): string {
  const rel = relative(root, file).split(sep).join('/');
  // Vite puts a content hash in every name under assets/: a new build never reuses a name.
  if (rel.startsWith('assets/')) return 'public, max-age=31536000, immutable';
  if (mustRevalidate(basename(rel))) return 'no-cache';
  return 'public, max-age=3600';
}

/**
 * Serves the built app from `root` (dist/). Returns a handler for client routes (paths that are
 * not /api and not files), which get index.html so deep links work; null when there is no build.
 */
export async function appShell(
  app: FastifyInstance,
  root: string | null,
): Promise<((reply: FastifyReply) => FastifyReply) | null> {
  if (!root || !existsSync(root)) return null;
  await app.register(fastifyStatic, {
    root,
    wildcard: true,
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
  return serveIndex;
}

/** A client route: a GET/HEAD outside /api whose last segment has no file extension. */
export function isClientRoute(method: string, url: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const path = url.split('?', 1)[0];
  if (path === '/api' || path.startsWith('/api/')) return false;
  const last = path.slice(path.lastIndexOf('/') + 1);
  return !last.includes('.');
}
