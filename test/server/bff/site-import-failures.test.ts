import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportReport } from '../../../src/shared/schemas/site-import';
import { serveHop, startBffStack, type BffStack } from './helpers/bff-stack';
import { answerError, forwardingHop } from './helpers/forwarding-hop';

type Answer = ImportReport & { error?: { code: string; message: string } };

let stack: BffStack;
let manager: string;
/** While set, the hop answers 503 to every site create after this many have passed. */
let failCreatesAfter: number | null = null;
let createsPassed = 0;
/** What the hop answers the creates it fails. */
let failStatus = 503;
/** How often the BFF asked for the batch route. */
let batchAsked = 0;

const HEADER = 'code,name,latitude,longitude,coordinate_precision';
const file = (from: number, n: number, name = 'Site') =>
  [HEADER, ...Array.from({ length: n }, (_, i) => `${from + i},${name} ${i},38.5,-121.5,1`)].join(
    '\n',
  );

async function importFile(body: string): Promise<{ status: number; body: Answer }> {
  const res = await request(`${stack.url}/api/import/sites`, {
    method: 'POST',
    headers: { origin: stack.url, 'x-csrf': '1', cookie: manager, 'content-type': 'text/csv' },
    body,
  });
  return { status: res.statusCode, body: (await res.body.json()) as Answer };
}

async function codes(): Promise<string[]> {
  const res = await stack.api('/api/v1/site?pageSize=1000', { cookie: manager });
  return res.json<{ rows: Array<{ code: string }> }>().rows.map((r) => r.code);
}

beforeAll(async () => {
  stack = await startBffStack({
    // Between the BFF and the records service: an upstream that starts failing midway.
    hop: (upstream) =>
      serveHop(
        forwardingHop(upstream, {
          intercept(req, res) {
            // A hosted service without the records service's batch route: the BFF writes row by row.
            if (req.method === 'POST' && req.url === '/v1/site/batch') {
              batchAsked += 1;
              answerError(res, 404, 'not_found', 'No such route');
              return true;
            }
            const isCreate = req.method === 'POST' && req.url === '/v1/site';
            if (isCreate && failCreatesAfter !== null && createsPassed >= failCreatesAfter) {
              const code = failStatus === 401 ? 'token_expired' : 'internal';
              answerError(res, failStatus, code, 'Down for a moment');
              return true;
            }
            if (isCreate) createsPassed += 1;
            return false;
          },
        }),
      ),
  });
  manager = await stack.signIn('demo-manager');
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

describe('site import when an upstream without the batch route fails midway', () => {
  it('stops, says how many sites were written, and the same file again completes the job', async () => {
    failCreatesAfter = 12;
    createsPassed = 0;
    const csv = file(310_000, 40);
    const first = await importFile(csv);
    expect(first.status).toBe(502);
    expect(first.body.error?.code).toBe('upstream_unavailable');
    expect(first.body.errors).toEqual([
      expect.objectContaining({ code: 'write_failed', field: '(row)' }),
    ]);
    expect(first.body.created).toBe(12);
    expect(first.body.errors[0].message).toMatch(
      /12 sites were written.*import the same file again/,
    );
    // What the app's sentence names, apart from the English (issue 38).
    expect(first.body.errors[0]).toMatchObject({
      problem: 'write_refused',
      values: { written: 12, reason: 'Down for a moment' },
    });

    failCreatesAfter = null;
    const second = await importFile(csv);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ rows: 40, created: 28, unchanged: 12, errors: [] });
    const held = (await codes()).filter((c) => c.startsWith('31'));
    expect(held).toHaveLength(40);
    expect(new Set(held).size).toBe(40);
  });

  it('replays a create whose answer was lost instead of making it twice', async () => {
    const seenBefore = stack.proxy.seen.length;
    const lost = stack.proxy.arm('POST', '/v1/site', 'drop');
    const res = await importFile(file(320_000, 5));
    await lost;
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ rows: 5, created: 5, errors: [] });
    const held = (await codes()).filter((c) => c.startsWith('32'));
    expect(held.sort()).toEqual(['320000', '320001', '320002', '320003', '320004']);
    const posts = stack.proxy.seen
      .slice(seenBefore)
      .filter((s) => s.method === 'POST' && s.path === '/v1/site');
    const keys = posts.map((s) => /idempotency-key: (\S+)/i.exec(s.head)?.[1]);
    // One create was sent twice, under the same key.
    expect(keys).toHaveLength(6);
    expect(new Set(keys).size).toBe(5);
  });

  it('creates afresh a site deleted since the same file was imported', async () => {
    const csv = file(330_000, 2, 'Kept');
    expect((await importFile(csv)).body.created).toBe(2);
    const rows = (await stack.api('/api/v1/site?pageSize=1000', { cookie: manager })).json<{
      rows: Array<{ id: number; code: string }>;
    }>().rows;
    const gone = rows.find((r) => r.code === '330000')!;
    const del = await stack.api(`/api/v1/site/${gone.id}`, { method: 'DELETE', cookie: manager });
    expect(del.status, del.text).toBe(200);

    const again = await importFile(csv);
    expect(again.body).toMatchObject({ created: 1, unchanged: 1 });
    expect((await codes()).filter((c) => c === '330000')).toHaveLength(1);
  });

  it('answers 401 reauth_required when the sign-in ends midway, saying what was written', async () => {
    failStatus = 401;
    failCreatesAfter = 3;
    createsPassed = 0;
    const csv = file(350_000, 10);
    const first = await importFile(csv);
    expect(first.status).toBe(401);
    expect(first.body.error?.code).toBe('reauth_required');
    expect(first.body.created).toBe(3);
    expect(first.body.errors[0].message).toMatch(/sign-in has expired.*3 sites were written/);
    expect(first.body.errors[0]).toMatchObject({ problem: 'write_reauth', values: { written: 3 } });

    failCreatesAfter = null;
    manager = await stack.signIn('demo-manager');
    expect((await importFile(csv)).body).toMatchObject({ created: 7, unchanged: 3 });
  });

  it('asked for the batch route once, and wrote row by row ever since', () => {
    expect(batchAsked).toBe(1);
  });
});
