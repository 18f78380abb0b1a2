import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { checkStored, closeClients, runCollectionLoad, signIn } from './collection-load';
import { startScaleOutStack, type ScaleOutStack } from './scale-out-stack';

/**
 * Issue 13 item 5, a fixed sample of the load (the full 50 × 100 is `npm run bench --
 * scale-out`): technicians saving collections at once through real `npm start` processes, with
 * retries, dropped responses and the same key sent twice at once to two BFFs. On the embedded
 * database with one process always; on PostgreSQL with one and with two processes (`--workers
 * 2`) when TRAPLINE_TEST_DATABASE_URL names a server (CI).
 */
const SAMPLE = { technicians: 8, collectionsEach: 12 };
const adminUrl = process.env.TRAPLINE_TEST_DATABASE_URL;

const setups: Array<{ name: string; workers: number; postgres: boolean }> = [
  { name: 'the embedded database, one process', workers: 1, postgres: false },
  ...(adminUrl
    ? [
        { name: 'PostgreSQL, one process', workers: 1, postgres: true },
        { name: 'PostgreSQL, two processes', workers: 2, postgres: true },
      ]
    : []),
];

describe.each(setups)('collections saved at once on $name', ({ workers, postgres }) => {
  let stack: ScaleOutStack;
  beforeAll(async () => {
    stack = await startScaleOutStack({
      workers,
      adminUrl: postgres ? adminUrl : undefined,
      shortLived: true,
    });
  }, 300_000);
  afterAll(async () => {
    await closeClients();
    await stack?.close();
  }, 60_000);

  it('stores each collection once, under the number and id its technician was given', async () => {
    const load = await runCollectionLoad({ bffUrls: stack.bffUrls, ...SAMPLE });
    console.log(
      `${stack.label}: ${load.keys} collections in ${load.seconds.toFixed(1)} s ` +
        `(${(load.keys / load.seconds).toFixed(0)}/s), ${load.requests} requests, ` +
        `${load.inFlight} answered in flight, ${load.replayed} replayed`,
    );
    expect(load.errors).toEqual([]);
    expect(load.keys).toBe(SAMPLE.technicians * SAMPLE.collectionsEach);
    expect(new Set([...load.created.values()].map((c) => c.id)).size).toBe(load.keys);
    // Duplicates and retries were answered from a journal, not created again.
    expect(load.replayed).toBeGreaterThan(0);

    const stored = await checkStored(stack.bffUrls[0], load);
    expect([...stored.rowsPerMarker.values()].filter((ids) => ids.length !== 1)).toEqual([]);
    expect(stored.rowsPerMarker.size).toBe(load.keys);
    expect(stored.wrongIds).toEqual([]);
    expect(stored.repeatedNumbers).toEqual([]);
  }, 180_000);

  it.runIf(workers > 1)(
    'signs out everywhere at once: the cookie stops working through the other process',
    async () => {
      const [a, b] = stack.bffUrls;
      const clients = new Agent();
      onTestFinished(() => clients.close());
      const tech = await signIn(a, 'demo-tech');
      const get = async (url: string, path: string) => {
        const res = await request(`${url}${path}`, {
          dispatcher: clients,
          headers: { origin: url, 'x-csrf': '1', cookie: tech.cookie },
        });
        await res.body.dump();
        return res.statusCode;
      };
      // Process B has read the session and keeps it in memory.
      expect(await get(b, '/api/session')).toBe(200);
      expect(await get(b, '/api/v1/site?pageSize=1')).toBe(200);
      const out = await request(`${a}/api/session`, {
        dispatcher: clients,
        method: 'DELETE',
        headers: { origin: a, 'x-csrf': '1', cookie: tech.cookie },
      });
      await out.body.dump();
      expect(out.statusCode).toBe(204);
      // Right away, not after the cache's 10 s: who-am-I and data alike.
      expect(await get(b, '/api/session')).toBe(401);
      expect(await get(b, '/api/v1/site?pageSize=1')).toBe(401);
    },
    60_000,
  );
});
