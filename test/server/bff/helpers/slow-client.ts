import { connect, type Socket } from 'node:net';

export type SlowClientResult = {
  /** True when the server closed the connection before `giveUpMs`. */
  closedByServer: boolean;
  /** Milliseconds from the first byte sent until the server closed (or until giving up). */
  afterMs: number;
  /** Everything the server sent (an answer's status line, if any). */
  received: string;
};

/**
 * A client at the network edge that writes `parts` one after another, `gapMs` apart, then stays
 * silent, with the socket open, until the server closes it or `giveUpMs` passes (then it closes
 * the socket itself and reports `closedByServer: false`). With `trickleMs`, after the parts it
 * keeps sending one byte of `trickle` every `trickleMs` instead of going silent.
 */
export function slowClient(
  baseUrl: string,
  parts: string[],
  options: { gapMs?: number; giveUpMs: number; trickleMs?: number; trickle?: string },
): Promise<SlowClientResult> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ host: hostname, port: Number(port) });
    const started = Date.now();
    let received = '';
    let settled = false;
    const timers: NodeJS.Timeout[] = [];
    const finish = (closedByServer: boolean) => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      clearInterval(trickler);
      resolve({ closedByServer, afterMs: Date.now() - started, received });
      socket.destroy();
    };
    let trickler: NodeJS.Timeout | undefined;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('close', () => finish(true));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      // A reset while the test still writes is the server closing the connection.
      if (err.code === 'ECONNRESET' || err.code === 'EPIPE') finish(true);
      else if (!settled) reject(err);
    });
    socket.on('connect', () => {
      parts.forEach((part, i) => {
        timers.push(
          setTimeout(
            () => {
              if (!settled) socket.write(part);
              if (i === parts.length - 1 && options.trickleMs) {
                const bytes = options.trickle ?? ' ';
                let k = 0;
                trickler = setInterval(() => {
                  if (!settled) socket.write(bytes[k++ % bytes.length]);
                }, options.trickleMs);
              }
            },
            i * (options.gapMs ?? 0),
          ),
        );
      });
      timers.push(setTimeout(() => finish(false), options.giveUpMs));
    });
  });
}

/** The request line and headers of a JSON POST (CRLF line ends, blank line included). */
export function jsonPostHead(
  baseUrl: string,
  path: string,
  contentLength: number,
  extra: Record<string, string> = {},
): string {
  const { host } = new URL(baseUrl);
  const headers = {
    host,
    'content-type': 'application/json',
    'content-length': String(contentLength),
    connection: 'close',
    ...extra,
  };
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
  return `POST ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}
