import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { request } from 'undici';

/**
 * A test's HTTP hop between the BFF and the records service (serve it with `serveHop`, hand it to
 * `startBffStack({ hop })`): it forwards every request as it came and passes the answer back,
 * unless the test's hooks answer, delay or count it. What the hooks do is the test's upstream
 * behaviour (failing midway, slow pages, pages in flight); the forwarding is the same for all.
 */
export type HopHooks = {
  /** Answers the request itself (returns true), or lets it go on to the upstream (false). */
  intercept?(req: IncomingMessage, res: ServerResponse): boolean | Promise<boolean>;
  /** Runs before the request goes on to the upstream (to make the upstream slow to act). */
  beforeForward?(req: IncomingMessage): void | Promise<void>;
  /** Runs once the upstream has answered, before its answer is passed on (to delay it). */
  beforeAnswer?(req: IncomingMessage): void | Promise<void>;
  /** Runs when the request is done with: answered, intercepted, or its answer lost. */
  settled?(req: IncomingMessage): void;
};

const HOP_BY_HOP = ['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'];

export function forwardingHop(upstream: string, hooks: HopHooks = {}): Server {
  return createServer((req, res) => {
    void (async () => {
      try {
        if (await hooks.intercept?.(req, res)) return;
        const chunks: Buffer[] = [];
        for await (const c of req) chunks.push(c as Buffer);
        await hooks.beforeForward?.(req);
        const headers = { ...req.headers };
        for (const h of HOP_BY_HOP) delete headers[h];
        const up = await request(`${upstream}${req.url ?? '/'}`, {
          method: req.method as 'GET',
          headers,
          body: chunks.length ? Buffer.concat(chunks) : undefined,
        });
        const body = Buffer.from(await up.body.arrayBuffer());
        const out: Record<string, string | string[]> = {};
        for (const [k, v] of Object.entries(up.headers)) {
          if (v !== undefined && !HOP_BY_HOP.includes(k)) out[k] = v;
        }
        await hooks.beforeAnswer?.(req);
        res.writeHead(up.statusCode, out);
        await new Promise<void>((r) => res.end(body, r));
      } catch {
        // The upstream lost the answer (or the hook threw): lose it here too.
        res.destroy();
      } finally {
        hooks.settled?.(req);
      }
    })();
  });
}

/** Answers a request with the contract's error body (§2). */
export function answerError(res: ServerResponse, status: number, code: string, message: string) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { code, message } }));
}

/** The records service's list routes a report reads page by page. */
const REPORT_LISTS = new Set(['/v1/arthropod/collection', '/v1/arthropod/pool']);

/** A GET of a collection or pool list page (not a one-row read). */
export function isReportListRead(req: IncomingMessage): boolean {
  return req.method === 'GET' && REPORT_LISTS.has(req.url?.split('?')[0] ?? '');
}
