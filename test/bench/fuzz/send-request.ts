import { Agent } from 'undici';
import type { FuzzRequest } from './endpoints';

export type Answer = {
  kind: 'answer';
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  ms: number;
};
/**
 * No answer: 'hang' (nothing within the timeout), 'connection' (the server closed or reset the
 * connection instead of answering), 'unsendable' (the HTTP client itself refused the request, so
 * it never reached a server: not counted against the servers).
 */
export type NoAnswer = { kind: 'hang' | 'connection' | 'unsendable'; detail: string; ms: number };
export type Outcome = Answer | NoAnswer;

/** Keep-alive connections to both servers, as a browser and a script would hold them. */
export function fuzzAgent(): Agent {
  return new Agent({
    connections: 64,
    keepAliveTimeout: 10_000,
    headersTimeout: 0,
    bodyTimeout: 0,
  });
}

/** Percent-encodes what an HTTP request line cannot carry (non-ASCII, spaces); the rest verbatim. */
function wirePath(path: string): string {
  return path.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c));
}

/**
 * Sends one request over real HTTP, the path exactly as generated (undici's dispatcher API does
 * not normalise `..` or `//`), and waits at most `timeoutMs` for the whole answer.
 */
export async function sendRequest(
  agent: Agent,
  origin: string,
  req: FuzzRequest,
  timeoutMs: number,
): Promise<Outcome> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  const signal = AbortSignal.timeout(timeoutMs);
  let sent = false;
  try {
    const res = await agent.request({
      origin,
      path: wirePath(req.path),
      method: req.method as 'GET',
      headers: req.headers,
      body: req.body,
      signal,
    });
    sent = true;
    const text = await res.body.text();
    return { kind: 'answer', status: res.statusCode, headers: res.headers, text, ms: ms() };
  } catch (err) {
    const e = err as { name?: string; code?: string; message?: string };
    if (signal.aborted)
      return { kind: 'hang', detail: `no answer within ${timeoutMs} ms`, ms: ms() };
    const detail = `${e.code ?? e.name ?? 'error'}: ${e.message ?? String(err)}`;
    const unsendable =
      !sent && (e.code === 'UND_ERR_INVALID_ARG' || e.name === 'InvalidArgumentError');
    return { kind: unsendable ? 'unsendable' : 'connection', detail, ms: ms() };
  }
}
