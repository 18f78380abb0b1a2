import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RecordsOptions } from '../../../../src/server/records/app';
import { startBff, type BffOptions, type RunningBff } from '../../../../src/server/bff/app';
import { buildTestRecords, TEST_PASSWORD, type TestRecords } from '../../helpers/records-app';
import { cookieFrom, http, type HttpAnswer, type HttpOptions } from './http';
import { startTcpFaultProxy, type TcpFaultProxy } from './tcp-fault-proxy';

export type ApiOptions = HttpOptions & { cookie?: string; csrf?: boolean };

export type BffStack = {
  records: TestRecords;
  /** The records service over real HTTP. */
  recordsUrl: string;
  /** The TCP proxy between BFF and records service (sees what the upstream receives). */
  proxy: TcpFaultProxy;
  bff: RunningBff;
  url: string;
  /** Signs in through POST /api/session and returns the Cookie header value. */
  signIn(username?: string, password?: string): Promise<string>;
  /** A request from the app: same Origin, X-CSRF: 1 (unless csrf: false), the given cookie. */
  api(path: string, options?: ApiOptions): Promise<HttpAnswer>;
  /** Another BFF process on the same database and upstream (sessions and journal are shared). */
  startSibling(overrides?: Partial<BffOptions>): Promise<RunningBff>;
  close(): Promise<void>;
};

export function appRequest(baseUrl: string) {
  return (path: string, options: ApiOptions = {}) => {
    const headers: Record<string, string> = {
      origin: baseUrl,
      accept: 'application/json',
      ...options.headers,
    };
    // origin: '' means "send no Origin header" (a same-origin GET, or a non-browser client).
    if (headers.origin === '') delete headers.origin;
    if (options.csrf !== false) headers['x-csrf'] = '1';
    if (options.cookie) headers.cookie = options.cookie;
    return http(`${baseUrl}${path}`, { ...options, headers });
  };
}

/** Serves a test's own HTTP hop (see startBffStack's `hop`) on 127.0.0.1:0. */
export async function serveHop(server: Server): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/**
 * The real records service (fresh database, seeded accounts) listening on 127.0.0.1:0, a TCP
 * proxy in front of it, and the real BFF on port 0 using the same database for its own tables.
 */
export async function startBffStack(
  options: {
    records?: Omit<RecordsOptions, 'db'>;
    bff?: Partial<BffOptions>;
    /**
     * An HTTP hop of the test's own between the BFF and the proxy (it delays or drops what the
     * upstream answers): started with the proxy's URL, it gives the URL the BFF forwards to, and
     * is closed with the stack.
     */
    hop?: (upstreamUrl: string) => Promise<{ url: string; close(): Promise<void> }>;
  } = {},
): Promise<BffStack> {
  const records = await buildTestRecords(options.records);
  await records.app.listen({ port: 0, host: '127.0.0.1' });
  const recordsUrl = `http://127.0.0.1:${(records.app.server.address() as AddressInfo).port}`;
  const proxy = await startTcpFaultProxy(recordsUrl);
  const hop = options.hop ? await options.hop(proxy.url) : null;
  const base: BffOptions = {
    db: records.db,
    upstreamUrl: hop?.url ?? proxy.url,
    staticRoot: null,
    ...options.bff,
  };
  const bff = await startBff(base);
  const siblings: RunningBff[] = [];
  const api = appRequest(bff.url);
  return {
    records,
    recordsUrl,
    proxy,
    bff,
    url: bff.url,
    api,
    async signIn(username = 'demo-tech', password = TEST_PASSWORD) {
      const res = await api('/api/session', { method: 'POST', body: { username, password } });
      const cookie = cookieFrom(res);
      if (res.status !== 200 || !cookie)
        throw new Error(`sign-in failed: ${res.status} ${res.text}`);
      return cookie;
    },
    async startSibling(overrides = {}) {
      const s = await startBff({ ...base, ...overrides });
      siblings.push(s);
      return s;
    },
    async close() {
      await proxy.close();
      for (const s of siblings) await s.close();
      await bff.close();
      await hop?.close();
      await records.close();
    },
  };
}
