import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/**
 * Compressed copies of the app's files, written beside them by the build (`x.js.br`, `x.js.gz`)
 * and sent by the BFF's app shell to a browser that accepts the encoding (@fastify/static's
 * `preCompressed`). The tablet's first load and every service-worker update are ~1.3 MB of
 * scripts: ~370 KB as brotli, which on one bar of signal is seconds instead of tens of seconds.
 * Compressed once at build time at the highest settings, never per request.
 */

/** The encodings written, by the suffix @fastify/static looks for. */
export const COMPRESSED_SUFFIXES = ['.br', '.gz'] as const;

/** Text the browser fetches (source maps are for developers, and stay as they are). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt)$/;

/** Below this, a copy saves less than the bytes of the headers that announce it. */
const MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** `file` without its compressed copy's suffix (the file it is a copy of), or `file` itself. */
export function uncompressedName(file: string): string {
  const suffix = COMPRESSED_SUFFIXES.find((s) => file.endsWith(s));
  return suffix ? file.slice(0, -suffix.length) : file;
}

/**
 * Writes a brotli and a gzip copy beside every compressible file of `root` (recursively) that is
 * at least MIN_BYTES long, each only when it is smaller than the file (otherwise the file is sent
 * as it is).
 */
export async function writeCompressedCopies(root: string): Promise<void> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile() && COMPRESSIBLE.test(e.name))
    .map((e) => join(e.parentPath, e.name));
  await Promise.all(
    files.map(async (file) => {
      const raw = await readFile(file);
      if (raw.length < MIN_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(raw, {
          params: {
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        }),
        gzipped(raw, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      if (br.length < raw.length) await writeFile(`${file}.br`, br);
      if (gz.length < raw.length) await writeFile(`${file}.gz`, gz);
    }),
  );
}
