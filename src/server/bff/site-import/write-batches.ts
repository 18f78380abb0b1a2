import { randomUUID } from 'node:crypto';
import {
  MAX_SITE_BATCH,
  SITE_BATCH_PATH,
  type SiteBatchItem,
  type SiteBatchResult,
} from '#shared/schemas/site-batch';
import type { BffContext } from '../context';
import { parseJson } from '../parse-json';
import type { StoredSession } from '../session-store';
import type { UpstreamClient, UpstreamResponse } from '../upstream-client';
import type { ImportPlan } from './plan-import';
import type { WriteOutcome } from './write-plan';

/**
 * Batches in flight at once: while the records service writes one, the BFF sends the next
 * (on PGlite they queue there; on PostgreSQL they run side by side).
 */
export const BATCHES_IN_FLIGHT = 2;
/** A 1,000-site batch is seconds of work on a loaded machine: far more than a normal answer. */
const BATCH_TIMEOUT_MS = 5 * 60_000;

/**
 * Whether an upstream has POST /v1/site/batch (the bundled records service does; the hosted
 * VectorSurv API does not), learnt from its first answer and kept for the BFF's life.
 */
const batchRoute = new WeakMap<UpstreamClient, boolean>();

export type BatchWrite = { row: number; item: SiteBatchItem };

/** The plan's writes as batch items, with the file row each comes from. */
export function batchWrites(plan: ImportPlan): BatchWrite[] {
  return [
    ...plan.creates.map((c) => ({ row: c.row, item: { op: 'create' as const, site: c.body } })),
    ...plan.updates.map((u) => ({
      row: u.row,
      item: { op: 'update' as const, id: u.id, site: u.changes },
    })),
  ];
}

type Send = (body: string, key: string) => Promise<UpstreamResponse>;
type Retry = (send: () => Promise<UpstreamResponse>) => Promise<UpstreamResponse>;

/**
 * Carries out a checked plan in batches of MAX_SITE_BATCH through POST /v1/site/batch; answers
 * 'unsupported' (nothing written) when the upstream has no such route (404/405 to the first
 * batch), and the caller then writes row by row.
 *
 * What holds when a batch fails midway (the upstream refused one, went away, or the sign-in
 * expired): each batch is one transaction upstream, so every batch is written whole or not at
 * all; no batch is started after the failure, the one in flight beside it finishes, and the
 * answer counts what was written. Importing the same file again finishes the job: the plan is
 * made afresh from the agency's sites, so written rows count as unchanged and only the rest is
 * sent. A batch is retried (network failure, 5xx, 429, key in flight) under the same
 * Idempotency-Key, so one whose answer was lost is replayed, never written twice. The key is new
 * for each run of an import: a later run never replays an earlier run's answer (whose sites may
 * have been deleted since); a site committed by a lost batch is found by the next run's read,
 * and the code-in-use rule refuses it a second time whatever happens.
 */
export async function writeInBatches(
  ctx: BffContext,
  session: StoredSession,
  plan: ImportPlan,
  retry: Retry,
  onFailure: (outcome: WriteOutcome, row: number, res: UpstreamResponse | Error) => void,
): Promise<WriteOutcome | 'unsupported'> {
  const supported = batchRoute.get(ctx.upstream);
  if (supported === false) return 'unsupported';
  const writes = batchWrites(plan);
  const batches: BatchWrite[][] = [];
  for (let i = 0; i < writes.length; i += MAX_SITE_BATCH) {
    batches.push(writes.slice(i, i + MAX_SITE_BATCH));
  }
  const headers = {
    authorization: `Bearer ${session.token}`,
    accept: 'application/json',
    'content-type': 'application/json',
  };
  const post: Send = (body, key) =>
    ctx.upstream.request({
      method: 'POST',
      path: SITE_BATCH_PATH,
      headers: { ...headers, 'idempotency-key': key },
      body,
      timeoutMs: BATCH_TIMEOUT_MS,
    });
  const outcome: WriteOutcome = { created: 0, updated: 0, unchanged: 0 };

  const runBatch = async (batch: BatchWrite[]): Promise<'unsupported' | 'done'> => {
    const body = JSON.stringify({ items: batch.map((w) => w.item) });
    const key = randomUUID();
    const res = await retry(() => post(body, key)).catch((err: unknown) => err as Error);
    if (!(res instanceof Error) && batchRoute.get(ctx.upstream) === undefined) {
      if (res.status === 404 || res.status === 405) {
        batchRoute.set(ctx.upstream, false);
        return 'unsupported';
      }
      if (res.status < 300) batchRoute.set(ctx.upstream, true);
    }
    if (res instanceof Error || res.status >= 300) {
      onFailure(outcome, failedRow(batch, res), res);
      return 'done';
    }
    const results = (parseJson(res.body) as { results?: SiteBatchResult[] } | undefined)?.results;
    for (const r of results ?? []) {
      if (r.result === 'created') outcome.created += 1;
      else if (r.result === 'updated') outcome.updated += 1;
      else outcome.unchanged = (outcome.unchanged ?? 0) + 1;
    }
    return 'done';
  };

  // The first batch alone: it tells whether the route exists before anything else is sent.
  let next = 0;
  if (supported === undefined && batches.length > 0) {
    if ((await runBatch(batches[next++])) === 'unsupported') return 'unsupported';
  }
  const worker = async () => {
    while (!outcome.failure && next < batches.length) await runBatch(batches[next++]);
  };
  await Promise.all(Array.from({ length: BATCHES_IN_FLIGHT }, worker));
  return outcome;
}

/** The file row a failed batch is reported at: the first item the upstream named, else its first. */
function failedRow(batch: BatchWrite[], res: UpstreamResponse | Error): number {
  if (!(res instanceof Error)) {
    const body = parseJson(res.body) as { error?: { fields?: { path?: unknown }[] } } | undefined;
    const path = body?.error?.fields?.[0]?.path;
    const index = typeof path === 'string' ? /^items\.(\d+)\./.exec(path)?.[1] : undefined;
    if (index !== undefined && batch[Number(index)]) return batch[Number(index)].row;
  }
  return batch[0].row;
}
