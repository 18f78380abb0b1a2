import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export type SeenRequest = { method: string; path: string; target: string; head: string };
type Fault = 'drop' | 'hold' | 'delay';
type Armed = {
  method: string;
  path: string;
  fault: Fault;
  delayMs: number;
  resolve: () => void;
};

export type TcpFaultProxy = {
  url: string;
  /** Request heads (request line and headers) as the upstream received them, in order. */
  seen: SeenRequest[];
  /** TCP connections accepted so far (keep-alive reuses them). */
  connections(): number;
  /**
   * The next request matching is forwarded whole; its answer is then lost:
   * 'drop' destroys the connection as the answer starts (the upstream has committed),
   * 'hold' swallows the answer and keeps the connection open (a hung upstream, a dead BFF);
   * 'delay' passes the answer on whole, `delayMs` late (a slow upstream; later answers on the
   * same connection too).
   * Resolves when the answer reached the proxy (and was lost or is being delayed).
   */
  arm(method: string, path: string, fault: Fault, delayMs?: number): Promise<void>;
  close(): Promise<void>;
};

const REQUEST_LINE =
  /(GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS) (\S+) HTTP\/1\.1\r\n([\s\S]*?)\r\n\r\n/g;

/**
 * A TCP proxy (node:net) between the BFF and the records service: it records what the upstream
 * really receives, and loses answers on demand after the upstream processed the request.
 */
export async function startTcpFaultProxy(targetUrl: string): Promise<TcpFaultProxy> {
  const target = new URL(targetUrl);
  const seen: SeenRequest[] = [];
  const armed: Armed[] = [];
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((client) => {
    accepted += 1;
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    let text = '';
    let parsed = 0;
    let fault: Armed | null = null;
    client.on('data', (chunk) => {
      text += chunk.toString('latin1');
      REQUEST_LINE.lastIndex = parsed;
      for (let m = REQUEST_LINE.exec(text); m; m = REQUEST_LINE.exec(text)) {
        parsed = REQUEST_LINE.lastIndex;
        const req = { method: m[1], path: m[2].split('?')[0], target: m[2], head: m[0] };
        seen.push(req);
        const i = armed.findIndex((a) => a.method === req.method && a.path === req.path);
        if (i >= 0) fault = armed.splice(i, 1)[0];
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (fault?.fault === 'drop') {
        fault.resolve();
        client.destroy();
        upstream.destroy();
        return;
      }
      if (fault?.fault === 'hold') {
        fault.resolve();
        return;
      }
      if (fault?.fault === 'delay') {
        fault.resolve();
        // Equal delays fire in order, so the chunks arrive as they were sent.
        setTimeout(() => client.write(chunk), fault.delayMs);
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
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', () => {
      if (fault?.fault !== 'hold') end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    connections: () => accepted,
    arm: (method, path, fault, delayMs = 0) =>
      new Promise<void>((resolve) => armed.push({ method, path, fault, delayMs, resolve })),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
