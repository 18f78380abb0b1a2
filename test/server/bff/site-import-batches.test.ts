import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportReport } from '../../../src/shared/schemas/site-import';
import { serveHop, startBffStack, type BffStack } from './helpers/bff-stack';
import { answerError, forwardingHop } from './helpers/forwarding-hop';

/**
 * The site import through the records service's POST /v1/site/batch (1,000 sites a request, each
 * one transaction): what a manager sees when the upstream fails midway, and that the same file
 * again finishes the job without a site twice.
 */
type Answer = ImportReport & { error?: { code: string; message: string } };

let stack: BffStack;
let manager: string;
/** While set, the hop answers `failStatus` to every batch after this many have passed. */
let failBatchesAfter: number | null = null;
let batchesPassed = 0;
let failStatus = 503;
/** While set, the hop answers the next batch with this 422 body. */
let refuseNextBatch: object | null = null;
/** Requests the hop saw, as "METHOD path". */
const asked: string[] = [];

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

async function codesFrom(prefix: string): Promise<string[]> {
  const res = await stack.api(
    `/api/v1/site?pageSize=1000&fields[]=code&query[code][$gte]=${prefix}0000&query[code][$lte]=${prefix}9999`,
    { cookie: manager },
  );
  expect(res.status, res.text).toBe(200);
  const out = res.json<{ rows: Array<{ code: string }>; count: number }>();
  const codes = out.rows.map((r) => r.code);
  for (let page = 2; codes.length < out.count; page++) {
    const more = await stack.api(
      `/api/v1/site?pageSize=1000&page=${page}&fields[]=code&query[code][$gte]=${prefix}0000&query[code][$lte]=${prefix}9999`,
      { cookie: manager },
    );
    codes.push(...more.json<{ rows: Array<{ code: string }> }>().rows.map((r) => r.code));
  }
  return codes;
}

beforeAll(async () => {
  stack = await startBffStack({
    hop: (upstream) =>
      serveHop(
        forwardingHop(upstream, {
          intercept(req, res) {
            asked.push(`${req.method} ${req.url}`);
            const isBatch = req.method === 'POST' && req.url === '/v1/site/batch';
            if (isBatch && failBatchesAfter !== null && batchesPassed >= failBatchesAfter) {
              const code = failStatus === 401 ? 'token_expired' : 'internal';
              answerError(res, failStatus, code, 'Down for a moment');
              return true;
            }
            if (isBatch && refuseNextBatch) {
              res.writeHead(422, { 'content-type': 'application/json' });
              res.end(JSON.stringify(refuseNextBatch));
              refuseNextBatch = null;
              return true;
            }
            if (isBatch) batchesPassed += 1;
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

describe('site import through the batch route', () => {
  it('writes 2,100 sites in three requests, none row by row', async () => {
    const before = asked.length;
    const res = await importFile(file(410_000, 2_100));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ rows: 2_100, created: 2_100, errors: [] });
    const writes = asked.slice(before).filter((a) => !a.startsWith('GET'));
    expect(writes).toEqual(Array(3).fill('POST /v1/site/batch'));
    const held = await codesFrom('41');
    expect(held).toHaveLength(2_100);
    expect(new Set(held).size).toBe(2_100);
  }, 60_000);

  it('stops at a failed batch, says how many sites were written, and the same file again completes the job', async () => {
    failStatus = 503;
    failBatchesAfter = 1;
    batchesPassed = 0;
    const csv = file(420_000, 2_100);
    const first = await importFile(csv);
    expect(first.status).toBe(502);
    expect(first.body.error?.code).toBe('upstream_unavailable');
    // The first batch is whole, the others are not there at all.
    expect(first.body.created).toBe(1_000);
    expect(first.body.errors[0].message).toMatch(
      /1000 sites were written.*import the same file again/,
    );
    expect(await codesFrom('42')).toHaveLength(1_000);

    failBatchesAfter = null;
    const second = await importFile(csv);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ rows: 2_100, created: 1_100, unchanged: 1_000 });
    const held = await codesFrom('42');
    expect(held).toHaveLength(2_100);
    expect(new Set(held).size).toBe(2_100);
  }, 60_000);

  it('replays a batch whose answer was lost instead of writing it twice', async () => {
    const seenBefore = stack.proxy.seen.length;
    const lost = stack.proxy.arm('POST', '/v1/site/batch', 'drop');
    const res = await importFile(file(430_000, 5));
    await lost;
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ rows: 5, created: 5, errors: [] });
    expect((await codesFrom('43')).sort()).toEqual([
      '430000',
      '430001',
      '430002',
      '430003',
      '430004',
    ]);
    const posts = stack.proxy.seen
      .slice(seenBefore)
      .filter((s) => s.method === 'POST' && s.path === '/v1/site/batch');
    const keys = posts.map((s) => /idempotency-key: (\S+)/i.exec(s.head)?.[1]);
    // The batch was sent twice, under the same key, and answered once from the stored answer.
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(1);
  });

  it('answers 401 reauth_required when the sign-in ends midway, saying what was written', async () => {
    failStatus = 401;
    failBatchesAfter = 1;
    batchesPassed = 0;
    const csv = file(440_000, 1_500);
    const first = await importFile(csv);
    expect(first.status).toBe(401);
    expect(first.body.error?.code).toBe('reauth_required');
    // Two batches are in flight (1,000 and 500 rows): whichever reached the upstream first passed.
    const written = first.body.created;
    expect([1_000, 500]).toContain(written);
    expect(first.body.errors[0].message).toMatch(
      new RegExp(`sign-in has expired.*${written} sites were written`),
    );

    failBatchesAfter = null;
    manager = await stack.signIn('demo-manager');
    expect((await importFile(csv)).body).toMatchObject({
      created: 1_500 - written,
      unchanged: written,
    });
  }, 60_000);

  it('reports a row the records service refused by its row in the file', async () => {
    // A colleague took a code between the import's check and its write: the batch's 422 names
    // the item, and the manager is told the row.
    refuseNextBatch = {
      error: {
        code: 'validation_failed',
        message: 'Nothing was written: 1 item has a problem',
        fields: [
          { path: 'items.1.site.code', message: "Already used by site 9 'Taken meanwhile'" },
        ],
      },
    };
    const res = await importFile(file(450_000, 3));
    expect(res.status).toBe(422);
    expect(res.body.created).toBe(0);
    expect(res.body.errors).toEqual([expect.objectContaining({ row: 3, code: 'write_failed' })]);
    expect(res.body.errors[0].message).toMatch(/row 3: Already used by site 9 'Taken meanwhile'/);
    expect(await codesFrom('45')).toEqual([]);
  });
});
