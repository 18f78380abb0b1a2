import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { constants } from 'node:zlib';

/** Below this an answer is sent as it is: compressing saves less than the headers it costs. */
export const COMPRESSION_THRESHOLD = 1024;

/** What the servers send, in their order of preference (brotli is ~15-20% smaller on JSON). */
export const ANSWER_ENCODINGS = ['br', 'gzip'] as const;

/** The media types of API answers: JSON (and GeoJSON) and CSV. Nothing else is compressed. */
const COMPRESSIBLE_TYPES = /^(?:application\/(?:[\w.-]+\+)?json|text\/csv)(?:;|$)/;

export type CompressionPolicy = {
  /**
   * Whether answers of the route at `url` (its pattern, e.g. `/api/v1/site/:id`) may be
   * compressed at all. Every other route's answers are compressed by the request's
   * Accept-Encoding when they are at least COMPRESSION_THRESHOLD bytes of a COMPRESSIBLE_TYPE.
   */
  compressible(url: string): boolean;
};

/**
 * Registers @fastify/compress (br or gzip, by the request's Accept-Encoding) for the routes the
 * policy allows. Call before registering routes: the decision is made per route as it is added.
 *
 * Streams stay streams: every chunk a route writes (an export writes one per upstream page) is
 * flushed through the compressor as it comes (Z_SYNC_FLUSH / BROTLI_OPERATION_FLUSH), so the
 * client receives each page when it is made, not when the compressor's window happens to fill,
 * and the whole file is never held. A stream that fails mid-way destroys the compressor with
 * it, and the response is aborted as before: a cut download still fails instead of ending like a
 * complete one (a compressed body that ends early does not decode either).
 */
export async function useCompression(
  app: FastifyInstance,
  policy: CompressionPolicy,
): Promise<void> {
  // Runs before the plugin's own onRoute hook (hooks run in the order they are added): a route
  // the policy excludes reaches the plugin with `compress: false` and gets no onSend hook at all.
  app.addHook('onRoute', (route) => {
    if (!policy.compressible(route.url ?? route.path ?? '')) route.compress = false;
  });
  await app.register(compress, {
    global: true,
    // Request bodies stay as sent: a compressed one would slip past the 1 MiB body limit's
    // intent (a few KiB that inflate to gigabytes), and no client of ours sends one.
    globalDecompression: false,
    threshold: COMPRESSION_THRESHOLD,
    encodings: [...ANSWER_ENCODINGS],
    customTypes: COMPRESSIBLE_TYPES,
    brotliOptions: {
      flush: constants.BROTLI_OPERATION_FLUSH,
      params: {
        // Quality 4: most of brotli's gain at gzip's speed (11 costs ~50x the CPU per answer).
        [constants.BROTLI_PARAM_QUALITY]: 4,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    },
    zlibOptions: { flush: constants.Z_SYNC_FLUSH },
  });
}
