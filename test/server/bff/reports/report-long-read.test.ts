import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHop, startBffStack, type BffStack } from '../helpers/bff-stack';
import { forwardingHop, isReportListRead } from '../helpers/forwarding-hop';

/**
 * A report on a district of 100,000 collections reads a couple of hundred list pages before it
 * can say a word: minutes on a loaded office machine, during which its client's connection
 * carries nothing. The BFF's idle backstop (DEFAULT_SERVER_TIMEOUTS.idleMs, 120 s) destroys a
 * socket with no traffic for that long, so such a report ended as a reset connection ("other
 * side closed") instead of an answer. Here the backstop is three seconds and every list page
 * takes 2.4 s to arrive, so the read (two lists, a page each, one after the other) outlasts it.
 * Three, not one: on a loaded machine the sign-in before the report could sit silent for a
 * second and was cut by the backstop itself, failing the test for the wrong reason.
 */
const IDLE_MS = 3_000;
const PAGE_DELAY_MS = 2_400;

/** Forwards everything; list pages (not the one-row reads) are answered PAGE_DELAY_MS late. */
const slowListHop = (target: string) =>
  forwardingHop(target, {
    async beforeAnswer(req) {
      if (isReportListRead(req) && req.url?.includes('pageSize=1000')) {
        await new Promise((r) => setTimeout(r, PAGE_DELAY_MS));
      }
    },
  });

let stack: BffStack;
let manager: string;

beforeAll(async () => {
  stack = await startBffStack({
    hop: (url) => serveHop(slowListHop(url)),
    bff: { timeouts: { idleMs: IDLE_MS } },
  });
  manager = await stack.signIn('demo-manager');
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

describe('a report whose lists take longer to read than the idle backstop', () => {
  it('is answered, not cut off', async () => {
    // A fresh session's first report: its agency's lists are read now, page by page, with its
    // client waiting in silence (two lists of a page each, one page at a time: 4.8 s at least).
    const at = Date.now();
    const res = await stack.api('/api/reports/vector-index?year=2025', { cookie: manager });
    expect(Date.now() - at).toBeGreaterThan(IDLE_MS);
    expect(res.status, res.text).toBe(200);
    expect(res.json<{ count: number }>().count).toBeGreaterThanOrEqual(0);
  }, 60_000);

  it('still closes a connection that sends nothing', async () => {
    // The backstop stays for a client that opened a connection and went quiet.
    const { connect } = await import('node:net');
    const { port } = new URL(stack.url);
    const socket = connect(Number(port), '127.0.0.1');
    const closed = await new Promise<number>((resolve) => {
      const at = Date.now();
      socket.once('close', () => resolve(Date.now() - at));
      socket.on('error', () => undefined);
    });
    // Node's header deadline or the idle backstop closes it: within seconds, not never.
    expect(closed).toBeLessThan(15_000);
  }, 30_000);
});
