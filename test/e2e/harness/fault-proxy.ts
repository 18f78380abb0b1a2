import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

/** One HTTP request seen passing through the proxy (request line only). */
export type ProxiedRequest = { method: string; path: string; at: number };

export type RequestMatch = { method: string; path: string | RegExp };

export type FaultProxy = {
  /** http://127.0.0.1:<port>, to be given to the BFF as its upstream. */
  url: string;
  /** Every request forwarded so far, in order. */
  requests: ProxiedRequest[];
  /**
   * Arms a fault: the next request matching `match` is forwarded whole to the target, and when
   * the target starts answering, the connection to the client is destroyed so the answer never
   * arrives ("response lost after commit"). Resolves with the dropped request once it happened.
   */
  dropResponseOfNext(match: RequestMatch): Promise<ProxiedRequest>;
  /**
   * Arms a hold: the next request matching `match` is forwarded whole, and the target's answer
   * is kept back at the proxy (the target has committed, the client still waits) until the test
   * calls `release()` (the answer goes on, late) or `drop()` (it is lost with the connection).
   */
  holdResponseOfNext(match: RequestMatch): HeldResponse;
  /**
   * A slow link: every byte from the client reaches the target `ms` later (0, the default, for
   * none). Order is kept: equal timeouts fire in the order they were set.
   */
  setLatency(ms: number): void;
  close(): Promise<void>;
};

export type HeldResponse = {
  /** Resolves once the target has answered and its answer is being held. */
  held: Promise<ProxiedRequest>;
  release(): void;
  drop(): void;
};

function matches(match: RequestMatch, req: ProxiedRequest): boolean {
  if (req.method !== match.method.toUpperCase()) return false;
  return typeof match.path === 'string' ? req.path === match.path : match.path.test(req.path);
}

/**
 * Follows the HTTP/1.1 request stream of one connection just far enough to know where each
 * request starts and ends (head, then a Content-Length or chunked body). Bytes are forwarded
 * untouched; this only observes them.
 */
class RequestStreamParser {
  private buf: Buffer = Buffer.alloc(0);
  private state: 'head' | 'body' | 'chunk-size' | 'chunk-data' | 'trailers' = 'head';
  private remaining = 0;

  constructor(
    private readonly onHead: (req: ProxiedRequest) => void,
    private readonly onComplete: () => void,
  ) {}

  push(chunk: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    for (;;) {
      if (this.state === 'head') {
        const end = this.buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = this.buf.subarray(0, end).toString('latin1');
        this.buf = this.buf.subarray(end + 4);
        const [line, ...headerLines] = head.split('\r\n');
        const [method = '', target = ''] = line.split(' ');
        this.onHead({ method, path: target.split('?')[0], at: Date.now() });
        const headers = new Map(
          headerLines.map((h) => {
            const i = h.indexOf(':');
            return [h.slice(0, i).trim().toLowerCase(), h.slice(i + 1).trim()] as const;
          }),
        );
        if (/chunked/i.test(headers.get('transfer-encoding') ?? '')) {
          this.state = 'chunk-size';
        } else {
          this.remaining = Number(headers.get('content-length') ?? 0);
          this.state = 'body';
        }
      } else if (this.state === 'body') {
        const take = Math.min(this.remaining, this.buf.length);
        this.buf = this.buf.subarray(take);
        this.remaining -= take;
        if (this.remaining > 0) return;
        this.state = 'head';
        this.onComplete();
      } else if (this.state === 'chunk-size') {
        const end = this.buf.indexOf('\r\n');
        if (end < 0) return;
        const size = parseInt(this.buf.subarray(0, end).toString('latin1').split(';')[0], 16);
        this.buf = this.buf.subarray(end + 2);
        if (size === 0) {
          this.state = 'trailers';
        } else {
          this.remaining = size + 2; // data and its CRLF
          this.state = 'chunk-data';
        }
      } else if (this.state === 'chunk-data') {
        const take = Math.min(this.remaining, this.buf.length);
        this.buf = this.buf.subarray(take);
        this.remaining -= take;
        if (this.remaining > 0) return;
        this.state = 'chunk-size';
      } else {
        const end = this.buf.indexOf('\r\n');
        if (end < 0) return;
        const line = this.buf.subarray(0, end);
        this.buf = this.buf.subarray(end + 2);
        if (line.length === 0) {
          this.state = 'head';
          this.onComplete();
        }
      }
    }
  }
}

/**
 * A TCP proxy (node:net) in front of `target` that can lose the answer of one request after the
 * target received it, committed and answered: the situation an Idempotency-Key exists for.
 * Assumes one request in flight per connection (no pipelining), as undici and Node send.
 */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const { hostname, port } = new URL(target);
  const requests: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();
  type Armed = {
    match: RequestMatch;
    resolve: (r: ProxiedRequest) => void;
    /** For a hold: called with the way to end it once the answer is held. */
    hold?: (end: { release(): void; drop(): void }) => void;
  };
  let armed: Armed | null = null;
  let latencyMs = 0;

  const server: Server = createServer((client) => {
    const upstream = connect({ host: hostname, port: Number(port) });
    sockets.add(client);
    sockets.add(upstream);
    // Set once a matching request has been forwarded whole: its answer is to be lost.
    let doomed: ProxiedRequest | null = null;
    let current: ProxiedRequest | null = null;
    let pendingDoom: (Pick<Armed, 'resolve' | 'hold'> & { req: ProxiedRequest }) | null = null;
    // Answer bytes kept back by a hold, until it is released (null: not holding).
    let heldChunks: Buffer[] | null = null;

    const parser = new RequestStreamParser(
      (req) => {
        requests.push(req);
        current = req;
        if (armed && matches(armed.match, req)) {
          pendingDoom = { req, resolve: armed.resolve, hold: armed.hold };
          armed = null;
        }
      },
      () => {
        if (pendingDoom && pendingDoom.req === current) {
          doomed = pendingDoom.req;
        }
      },
    );

    const forward = (chunk: Buffer) => {
      if (upstream.destroyed) return;
      parser.push(chunk);
      upstream.write(chunk);
    };
    client.on('data', (chunk: Buffer) => {
      if (latencyMs > 0) setTimeout(forward, latencyMs, chunk);
      else forward(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (heldChunks) {
        heldChunks.push(chunk);
        return;
      }
      if (doomed && pendingDoom?.hold) {
        const { resolve, req, hold } = pendingDoom;
        pendingDoom = null;
        doomed = null;
        heldChunks = [chunk];
        hold({
          release() {
            const chunks = heldChunks ?? [];
            heldChunks = null;
            for (const c of chunks) if (!client.destroyed) client.write(c);
          },
          drop() {
            heldChunks = null;
            client.destroy();
            upstream.destroy();
          },
        });
        resolve(req);
        return;
      }
      if (doomed && pendingDoom) {
        // The target has answered, so it has committed: drop the answer and the connection.
        const { resolve, req } = pendingDoom;
        pendingDoom = null;
        client.destroy();
        upstream.destroy();
        resolve(req);
        return;
      }
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: own } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${own}`,
    requests,
    dropResponseOfNext(match) {
      return new Promise<ProxiedRequest>((resolve) => {
        armed = { match, resolve };
      });
    },
    holdResponseOfNext(match) {
      let end: { release(): void; drop(): void } | null = null;
      // Asked before the answer arrived: done as soon as it is held.
      let early: 'release' | 'drop' | null = null;
      const held = new Promise<ProxiedRequest>((resolve) => {
        armed = {
          match,
          resolve,
          hold: (e) => {
            end = e;
            if (early) e[early]();
          },
        };
      });
      return {
        held,
        release: () => (end ? end.release() : (early = 'release')),
        drop: () => (end ? end.drop() : (early = 'drop')),
      };
    },
    setLatency(ms) {
      latencyMs = ms;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
