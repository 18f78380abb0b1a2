import { Pool, errors } from 'undici';
import { HttpError } from '../http/http-error';
import { decodeBody, UndecodableAnswer, UPSTREAM_ACCEPT_ENCODING } from './upstream-encoding';

export type UpstreamResponse = {
  status: number;
  contentType: string | undefined;
  retryAfter: string | undefined;
  /** The upstream's clock when it answered (its `Date` header), if it sent one. */
  date?: string;
  body: string;
  /** The Idempotency-Key the upstream says it honoured (records service: KEY_ECHO_HEADER). */
  honouredKey?: string;
  /** The upstream replayed a stored answer instead of acting again. */
  replayed?: boolean;
};

export type UpstreamRequest = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path below the upstream base, starting with `/` (e.g. `/v1/site/4`). */
  path: string;
  /** Raw query string without `?`, forwarded as the browser sent it. */
  query?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Overrides the response timeout for this call (health checks). */
  timeoutMs?: number;
};

export type UpstreamTimeouts = { connectTimeoutMs: number; responseTimeoutMs: number };

/**
 * An upstream failure with no HTTP answer. `delivered` says whether the request may have reached
 * the upstream: a refused or timed-out connect never did, so a create behind it was not applied;
 * a reset or a timeout after sending leaves the outcome unknown.
 */
export class UpstreamError extends HttpError {
  constructor(
    readonly kind: 'timeout' | 'unavailable',
    readonly delivered: boolean,
    detail: string,
  ) {
    super(
      kind === 'timeout' ? 504 : 502,
      kind === 'timeout' ? 'upstream_timeout' : 'upstream_unavailable',
      kind === 'timeout'
        ? 'The records service did not answer in time; your data is kept and will be sent again'
        : 'The records service is unreachable; your data is kept and will be sent again',
    );
    this.detail = detail;
  }
  readonly detail: string;
}

/** Cap on an upstream answer, as received and again once decoded. */
const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/**
 * Keep-alive connection pool to the upstream records service. Connect and response times are
 * bounded so that a hung upstream never holds a browser request (or a journal lease) forever.
 */
export class UpstreamClient {
  private readonly pool: Pool;
  private readonly basePath: string;
  readonly origin: string;

  /** `baseUrl` and `timeouts` are kept so a worker thread can open a pool of its own like it. */
  constructor(
    readonly baseUrl: string,
    readonly timeouts: UpstreamTimeouts,
  ) {
    const url = new URL(baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.pool = new Pool(url.origin, {
      connections: 32,
      keepAliveTimeout: 10_000,
      connect: { timeout: timeouts.connectTimeoutMs },
      headersTimeout: timeouts.responseTimeoutMs,
      bodyTimeout: timeouts.responseTimeoutMs,
      maxResponseSize: MAX_RESPONSE_BYTES,
    });
  }

  async request(req: UpstreamRequest): Promise<UpstreamResponse> {
    const path = `${this.basePath}${req.path}${req.query ? `?${req.query}` : ''}`;
    try {
      const res = await this.pool.request({
        method: req.method,
        path,
        // Reads ask for a compressed answer (list pages are the hop's volume); writes do not:
        // their answer is one record, and the answers that issue secrets are all writes.
        headers:
          req.method === 'GET'
            ? { ...req.headers, 'accept-encoding': UPSTREAM_ACCEPT_ENCODING }
            : req.headers,
        body: req.body,
        ...(req.timeoutMs ? { headersTimeout: req.timeoutMs, bodyTimeout: req.timeoutMs } : {}),
      });
      const raw = Buffer.from(await res.body.arrayBuffer());
      const body = await decodeBody(
        raw,
        header(res.headers['content-encoding']),
        MAX_RESPONSE_BYTES,
      );
      return {
        status: res.statusCode,
        contentType: header(res.headers['content-type']),
        retryAfter: header(res.headers['retry-after']),
        date: header(res.headers.date),
        body,
        honouredKey: header(res.headers['idempotency-key']),
        replayed: header(res.headers['idempotent-replayed']) === 'true',
      };
    } catch (err) {
      throw classify(err);
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  destroy(): Promise<void> {
    return this.pool.destroy();
  }
}

function header(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function classify(err: unknown): UpstreamError {
  const detail = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  // The upstream answered (so it may have acted), but what it said cannot be read.
  if (err instanceof UndecodableAnswer) return new UpstreamError('unavailable', true, detail);
  if (err instanceof errors.ConnectTimeoutError) return new UpstreamError('timeout', false, detail);
  if (err instanceof errors.HeadersTimeoutError || err instanceof errors.BodyTimeoutError) {
    return new UpstreamError('timeout', true, detail);
  }
  const code = (err as { code?: string }).code;
  if (
    code === 'ECONNREFUSED' ||
    code === 'ENOTFOUND' ||
    code === 'EAI_AGAIN' ||
    code === 'EHOSTUNREACH'
  ) {
    return new UpstreamError('unavailable', false, detail);
  }
  return new UpstreamError('unavailable', true, detail);
}
