import type { IncomingMessage, Server } from 'node:http';

export type CountedRequest = {
  method: string;
  path: string;
  idempotencyKey: string | null;
  at: number;
};

export type RequestCounter = {
  /** Every request the server received, in arrival order. */
  readonly requests: readonly CountedRequest[];
  /** Number of POSTs to exactly this path (query string ignored, trailing slash ignored). */
  posts(path: string): number;
  /** POSTs to each path, e.g. { '/v1/site': 2 }. */
  postsByPath(): Record<string, number>;
  reset(): void;
  detach(): void;
};

const normalise = (url: string): string => {
  const path = url.split('?')[0];
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
};

/**
 * Counts the requests an HTTP server receives, observed on the server itself (a listener on
 * its 'request' event, beside the app's own handler), so a count is what really arrived there.
 */
export function countRequests(server: Server): RequestCounter {
  const requests: CountedRequest[] = [];
  const listener = (req: IncomingMessage) => {
    const key = req.headers['idempotency-key'];
    requests.push({
      method: req.method ?? '',
      path: normalise(req.url ?? ''),
      idempotencyKey: typeof key === 'string' ? key : null,
      at: Date.now(),
    });
  };
  server.prependListener('request', listener);
  return {
    requests,
    posts: (path) =>
      requests.filter((r) => r.method === 'POST' && r.path === normalise(path)).length,
    postsByPath() {
      const out: Record<string, number> = {};
      for (const r of requests) if (r.method === 'POST') out[r.path] = (out[r.path] ?? 0) + 1;
      return out;
    },
    reset: () => void requests.splice(0),
    detach: () => void server.removeListener('request', listener),
  };
}
