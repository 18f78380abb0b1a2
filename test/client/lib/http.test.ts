import { afterEach, describe, expect, it, vi } from 'vitest';
import { connection } from '../../../src/client/lib/connection';
import { NetworkError, request } from '../../../src/client/lib/http';

/** The network edge: a server that answers only when told, and honours an abort as fetch does. */
function hangingFetch() {
  const calls: Array<{ answer(body: unknown): void }> = [];
  const fetch = vi.fn(
    (_url: string, init: RequestInit) =>
      new Promise<Response>((resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(init.signal?.reason), { once: true });
        calls.push({ answer: (body) => resolve(Response.json(body)) });
      }),
  );
  vi.stubGlobal('fetch', fetch);
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

/** Headers now, then half a body, then either a dropped connection or silence until aborted. */
function answerCutOff(ending: 'drop' | 'stall') {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit) => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"id": 4'));
          if (ending === 'drop') controller.error(new TypeError('terminated'));
          else
            init.signal?.addEventListener('abort', () => controller.error(init.signal?.reason), {
              once: true,
            });
        },
      });
      return new Response(body, { status: 201, headers: { 'content-type': 'application/json' } });
    }),
  );
}

describe('request', () => {
  it('fails as a network error when the connection drops halfway through the answer', async () => {
    answerCutOff('drop');
    const error = await request('/api/v1/site', { method: 'POST', body: {} }).catch(
      (e: unknown) => e,
    );
    // Not { ok: true } with no body: a create would be taken as acknowledged, with no id.
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).timedOut).toBe(false);
  });

  it('fails as a timeout when the answer stops coming halfway through its body', async () => {
    answerCutOff('stall');
    const error = await request('/api/v1/site', { method: 'POST', body: {}, timeoutMs: 50 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).timedOut).toBe(true);
  });

  it('gives up on an answer that never comes after timeoutMs, as a timed-out network error', async () => {
    hangingFetch();
    const started = Date.now();
    const error = await request('/api/v1/site', { timeoutMs: 50 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).timedOut).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it("stops when the caller's signal aborts, not as a timeout", async () => {
    hangingFetch();
    const caller = new AbortController();
    const pending = request('/api/v1/site', { timeoutMs: 10_000, signal: caller.signal }).catch(
      (e: unknown) => e,
    );
    caller.abort();
    const error = await pending;
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).timedOut).toBe(false);
  });

  it('answers with the body when the answer comes in time, and the timeout then never fires', async () => {
    const calls = hangingFetch();
    const pending = request<{ id: number }>('/api/v1/site', { timeoutMs: 30 });
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    calls[0].answer({ id: 7 });
    const result = await pending;
    expect(result).toMatchObject({ ok: true, status: 200, body: { id: 7 } });
    // Past the timeout: nothing is aborted after the fact (no unhandled rejection, no error).
    await new Promise((r) => setTimeout(r, 60));
  });
});

describe('request, as evidence of a connection', () => {
  const answering = (status: number) =>
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ error: { code: 'x', message: 'x' } }, { status })),
    );
  const failing = () =>
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );

  it('makes the app offline when a request fails though the browser says online', async () => {
    expect(navigator.onLine).toBe(true);
    failing();
    await request('/api/v1/site').catch(() => undefined);
    expect(connection.online).toBe(false);
  });

  it('makes the app offline when a request times out', async () => {
    hangingFetch();
    await request('/api/v1/site', { timeoutMs: 20 }).catch(() => undefined);
    expect(connection.online).toBe(false);
  });

  it('makes the app online again on any answer from the server, an error status included', async () => {
    failing();
    await request('/api/v1/site').catch(() => undefined);
    answering(503);
    await request('/api/v1/site');
    expect(connection.online).toBe(true);
  });

  it('takes a captive portal answer (511) as no connection', async () => {
    answering(511);
    await request('/api/v1/site');
    expect(connection.online).toBe(false);
  });

  it("says nothing of the network when the request's caller stopped it", async () => {
    hangingFetch();
    const caller = new AbortController();
    const pending = request('/api/v1/site', { signal: caller.signal }).catch(() => undefined);
    caller.abort();
    await pending;
    expect(connection.online).toBe(true);
  });
});
