/**
 * The server side of the drain benches: the records service on a fresh embedded PGlite with the
 * demo accounts, and the BFF in front of it over real HTTP, signed in as demo-tech the way a
 * script outside a browser must be (cookie, Origin, Sec-Fetch-Site).
 */
import { startBff } from '../../src/server/bff/app';
import { openDatabase } from '../../src/server/db/open-database';
import { buildRecords } from '../../src/server/records/app';
import { seedDemoAgencies } from '../../src/server/records/seed/seed-demo-agencies';
import { seedLookups } from '../../src/server/records/seed/seed-lookups';
import { DIST_DIR } from '../e2e/harness/paths';

export type DrainStack = {
  bffUrl: string;
  /** Headers a browser would send itself: the session cookie and the same-origin proof. */
  headers: Record<string, string>;
  /** POSTs a create through the BFF and returns the record the server answered. */
  post(
    path: string,
    body: unknown,
    key?: string,
  ): Promise<Record<string, unknown> & { id: number }>;
  /** How many records of the resource the agency has on the server. */
  count(path: string): Promise<number>;
  close(): Promise<void>;
};

/** Tiles at a closed port: the machine has no internet, and the drain benches draw no map. */
const NO_TILES = 'https://127.0.0.1:9/{z}/{x}/{y}.png';

/**
 * Idempotency keys the one signed-in user may hold in 24 h. A run sends each queue four times or
 * more from that user (the ideal clients before and after, the durable floor, the drain): 1,000
 * chains are over 24,000 keys, past the BFF's per-user cap (DEFAULT_ENTRIES_PER_USER, a week of
 * one technician's work at once), which then answered 429 "retry in an hour" part-way through the
 * drain and the bench waited for it. The cap is the BFF's own guard, not what is measured here.
 */
const BENCH_KEYS_PER_USER = 1_000_000;

/** `serveApp`: the BFF also serves the built app (dist/), for benches in Chromium. */
export async function startDrainStack(
  password: string,
  { serveApp = false }: { serveApp?: boolean } = {},
): Promise<DrainStack> {
  const db = await openDatabase({});
  await seedLookups(db);
  await seedDemoAgencies(db, { password });
  const records = await buildRecords({ db });
  const recordsUrl = await records.listen({ port: 0, host: '127.0.0.1' });
  const bff = await startBff({
    db,
    upstreamUrl: recordsUrl,
    staticRoot: serveApp ? DIST_DIR : null,
    tileUrl: NO_TILES,
    logger: false,
    journalEntriesPerUser: BENCH_KEYS_PER_USER,
  });
  const close = async () => {
    await bff.close();
    await records.close();
    await db.close();
  };
  try {
    const res = await fetch(`${bff.url}/api/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-CSRF': '1', Origin: bff.url },
      body: JSON.stringify({ username: 'demo-tech', password }),
    });
    if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(';', 1)[0])
      .join('; ');
    const headers = { Cookie: cookie, Origin: bff.url, 'Sec-Fetch-Site': 'same-origin' };
    return {
      bffUrl: bff.url,
      headers,
      async post(path, body, key = crypto.randomUUID()) {
        const r = await fetch(`${bff.url}/api/v1${path}`, {
          method: 'POST',
          headers: {
            ...headers,
            'X-CSRF': '1',
            'Content-Type': 'application/json',
            'Idempotency-Key': key,
          },
          body: JSON.stringify(body),
        });
        const text = await r.text();
        if (!r.ok) throw new Error(`POST ${path} failed: ${r.status} ${text}`);
        return JSON.parse(text) as Record<string, unknown> & { id: number };
      },
      async count(path) {
        const r = await fetch(`${bff.url}/api/v1${path}?pageSize=1`, {
          headers: { ...headers, 'X-CSRF': '1' },
        });
        return ((await r.json()) as { count: number }).count;
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
