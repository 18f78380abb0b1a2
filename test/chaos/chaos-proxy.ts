import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Fault, FaultKind } from './fault-plan';

export type ProxyHooks = {
  /** The fault for this request, or null to pass it through untouched. */
  decide(method: string, path: string): Fault | null;
  /** A fault was applied to a request on `path` (counted once, when it really happened). */
  injected(kind: FaultKind, path: string): void;
  /** The fault `decide` gave could not be applied to this request (see FaultPlan.missed). */
  missed(fault: Fault): void;
  /** SIGKILLs that process now (a kill fault); false when it was down already. */
  kill(target: 'bff' | 'records'): boolean;
};

export type ChaosProxy = {
  url: string;
  /** Where requests go on to; a restarted server listens on a new port. */
  setTarget(url: string): void;
  close(): Promise<void>;
};

/** The BFF's tus endpoint (photo uploads): POST here, HEAD and PATCH on `${UPLOADS}/<id>`. */
export const UPLOADS = '/api/uploads';

/** Hop-by-hop headers: they describe one connection, never the message. */
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade']);

function endToEnd(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP.has(k)) out[k] = v;
  return out;
}

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
    stream.on('aborted', () => reject(new Error('aborted')));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function answerJson(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  extra: Record<string, string> = {},
) {
  const body = JSON.stringify({ error: { code, message } });
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    ...extra,
  });
  res.end(body);
}

/**
 * An HTTP proxy at one network edge of the chaos stack (tablet → BFF, or BFF → records service)
 * that applies, per request, the fault `hooks.decide` deals. It works on whole HTTP messages
 * rather than bytes (unlike test/e2e/harness/fault-proxy.ts) because it must also answer in the
 * server's place (5xx, 429, 401) and cut a request body halfway, per request on kept-alive
 * connections. A server that is down (killed, restarting) looks like a broken connection.
 */
export async function startChaosProxy(
  side: 'edge' | 'upstream',
  initialTarget: string,
  hooks: ProxyHooks,
): Promise<ChaosProxy> {
  let target = new URL(initialTarget);
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const sockets = new Set<Socket>();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    const path = (req.url ?? '/').split('?')[0];
    // Only record traffic and photo uploads are faulted: sign-in, health, lookups and the
    // attachment lists pass (the runner signs in and reads the verdict through them).
    const faultable =
      side === 'edge'
        ? path.startsWith('/api/v1/') || path === UPLOADS || path.startsWith(`${UPLOADS}/`)
        : path.startsWith('/v1/');
    const fault = faultable ? hooks.decide(method, path) : null;
    const cut = () => req.socket.destroy();
    // Whether the fault acted (or, a timed kill, will act whatever becomes of the request).
    let struck = false;
    const strike = (kind: FaultKind) => {
      struck = true;
      hooks.injected(kind, path);
    };
    // The request ended before the fault could act on it: the fault is dealt again later.
    const miss = () => {
      if (fault && !struck) hooks.missed(fault);
      cut();
    };
    let body: Buffer;
    try {
      body = await readAll(req);
    } catch {
      return miss();
    }
    if (fault?.kind === 'drop-request') {
      strike(fault.kind);
      return cut();
    }
    if (fault?.kind === 'rate-limit') {
      strike(fault.kind);
      return answerJson(res, 429, 'rate_limited', 'Too many requests', {
        'retry-after': String(fault.retryAfterS),
      });
    }
    if (fault?.kind === 'token-expiry') {
      strike(fault.kind);
      // As each server says it: the BFF asks the app for the password, the records service
      // tells the BFF its token is no longer good.
      return side === 'edge'
        ? answerJson(res, 401, 'reauth_required', 'Sign in again (chaos)')
        : answerJson(res, 401, 'unauthenticated', 'The token has expired');
    }
    if (fault?.kind === 'server-error' && !fault.delivered) {
      strike(fault.kind);
      return answerJson(res, fault.status, 'upstream_unavailable', 'Gateway error (chaos)');
    }
    if (fault?.kind === 'delay' && fault.stage === 'request') {
      strike(fault.kind);
      await sleep(fault.ms);
    }

    const headers = endToEnd(req.headers);
    if (body.length > 0) headers['content-length'] = String(body.length);
    const up = httpRequest({
      host: target.hostname,
      port: Number(target.port),
      method,
      path: req.url,
      headers,
      agent,
    });
    up.on('error', cut);
    if (fault?.kind === 'reset') {
      strike(fault.kind);
      up.flushHeaders();
      if (body.length > 1) up.write(body.subarray(0, Math.floor(body.length / 2)));
      setTimeout(() => {
        up.destroy();
        cut();
      }, 5);
      return;
    }
    const killing = fault?.kind === 'kill-bff' || fault?.kind === 'kill-records' ? fault : null;
    const kill = (f: NonNullable<typeof killing>) => {
      if (hooks.kill(f.kind === 'kill-bff' ? 'bff' : 'records')) hooks.injected(f.kind, path);
      else hooks.missed(f);
    };
    if (killing && typeof killing.after === 'number') {
      struck = true; // the timer below kills, or deals the kill again, whatever the request does
      setTimeout(() => {
        kill(killing);
        // Answered already: the socket may carry the next request by now; leave it.
        if (!res.writableEnded) cut();
      }, killing.after);
    }
    up.end(body);
    let upRes: IncomingMessage;
    let answer: Buffer;
    try {
      upRes = await new Promise<IncomingMessage>((resolve, reject) => {
        up.on('response', resolve);
        up.on('error', reject);
      });
      answer = await readAll(upRes);
    } catch {
      return miss();
    }
    // The waiting side gave up (its timeout) before the answer came.
    if (req.socket.destroyed) return miss();
    // From here the server has answered: whatever it did is committed.
    if (killing && killing.after === 'answer') {
      kill(killing);
      return cut();
    }
    if (fault?.kind === 'drop-answer') {
      strike(fault.kind);
      return cut();
    }
    if (fault?.kind === 'server-error') {
      strike(fault.kind);
      return answerJson(res, fault.status, 'upstream_unavailable', 'Gateway error (chaos)');
    }
    if (fault?.kind === 'delay' && fault.stage === 'answer') {
      strike(fault.kind);
      await sleep(fault.ms);
      if (req.socket.destroyed) return;
    }
    const out = endToEnd(upRes.headers);
    out['content-length'] = String(answer.length);
    res.writeHead(upRes.statusCode ?? 502, out);
    if (fault?.kind === 'cut-answer') {
      // The whole length announced, half of it sent, then the connection drops.
      strike(fault.kind);
      res.write(answer.subarray(0, Math.floor(answer.length / 2)));
      setTimeout(cut, 5);
      return;
    }
    res.end(answer);
  };

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => req.socket.destroy());
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setTarget(url) {
      target = new URL(url);
      // Kept-alive sockets lead to the old process: drop them.
      agent.destroy();
    },
    async close() {
      for (const s of sockets) s.destroy();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
