import { setTimeout as sleep } from 'node:timers/promises';
import type { ImportError } from '#shared/schemas/site-import';
import type { BffContext } from '../context';
import { parseJson } from '../parse-json';
import { upstreamErrorCode } from '../upstream-error-code';
import type { StoredSession } from '../session-store';
import { UpstreamError, type UpstreamResponse } from '../upstream-client';
import { importKey } from './import-key';
import { writeInBatches } from './write-batches';
import type { ImportPlan } from './plan-import';
import type { CheckedRow } from './row-to-site';

/**
 * Writes in flight at once. The records service on PGlite runs one query at a time, so more
 * only queue there; a few keep it busy while the BFF reads answers and sends the next.
 */
export const IMPORT_CONCURRENCY = 8;
/** Tries of one write before the import stops: network failures, 5xx, 429, key in flight. */
const TRIES = 4;

export type WriteOutcome = {
  created: number;
  updated: number;
  /** Planned updates the upstream found already done (a batch says so; a PUT does not). */
  unchanged?: number;
  /** Set when a write failed for good: nothing more was started after it. */
  failure?: { status: number; code: string; row: number; why: string };
};

type Write = { row: number; send: () => Promise<UpstreamResponse>; kind: 'create' | 'update' };

/**
 * Carries out a checked plan (no errors): in batches through POST /v1/site/batch where the
 * upstream has it (write-batches.ts: the bundled records service), else row by row.
 * When the sign-in expired midway, the app is made to ask for the password again
 * (401 reauth_required), and the answer still says what was written.
 */
export async function writePlan(
  ctx: BffContext,
  session: StoredSession,
  plan: ImportPlan,
): Promise<WriteOutcome> {
  const batched = await writeInBatches(ctx, session, plan, withRetries, noteFailure);
  const outcome = batched === 'unsupported' ? await writeRowByRow(ctx, session, plan) : batched;
  if (outcome.failure?.code === 'reauth_required') {
    await ctx.sessions.expireToken(session, ctx.now());
  }
  return outcome;
}

/**
 * Row by row, for an upstream without the batch route (the hosted service): POST /v1/site with an
 * Idempotency-Key per create (import-key.ts), PUT /v1/site/{id} with the changed fields only.
 *
 * Guarantees, since the upstream has no transaction spanning requests: every row was checked
 * before the first write, so a write fails only when something changed meanwhile (a colleague
 * took a code, the upstream went away, the sign-in expired). Then no new write is started, the
 * ones in flight finish, and the answer says how many sites were written. Importing the same
 * file again completes the job: written rows now match and count as unchanged, a create whose
 * answer was lost is replayed by its key (or, on an upstream without keys, its code is found by
 * the new read), and nothing is ever created twice.
 */
async function writeRowByRow(
  ctx: BffContext,
  session: StoredSession,
  plan: ImportPlan,
): Promise<WriteOutcome> {
  const auth = { authorization: `Bearer ${session.token}`, accept: 'application/json' };
  const json = { ...auth, 'content-type': 'application/json' };
  const agencyId = session.info.agency.id;
  const writes: Write[] = [
    ...plan.creates.map((site): Write => ({
      row: site.row,
      kind: 'create',
      send: () => createSite(ctx, json, auth, agencyId, site),
    })),
    ...plan.updates.map((u): Write => ({
      row: u.row,
      kind: 'update',
      send: () =>
        ctx.upstream.request({
          method: 'PUT',
          path: `/v1/site/${u.id}`,
          headers: json,
          body: JSON.stringify(u.changes),
        }),
    })),
  ];
  const outcome: WriteOutcome = { created: 0, updated: 0 };
  let next = 0;
  const worker = async () => {
    while (!outcome.failure && next < writes.length) {
      const write = writes[next++];
      const res = await withRetries(write.send).catch((err: unknown) => err as Error);
      if (res instanceof Error || res.status >= 300) noteFailure(outcome, write.row, res);
      else if (write.kind === 'create') outcome.created += 1;
      else outcome.updated += 1;
    }
  };
  await Promise.all(Array.from({ length: IMPORT_CONCURRENCY }, worker));
  return outcome;
}

/**
 * Records why a write failed (the first failure wins); anything but an upstream failure or
 * answer is a fault and is thrown on.
 */
function noteFailure(outcome: WriteOutcome, row: number, res: UpstreamResponse | Error): void {
  if (res instanceof UpstreamError) {
    outcome.failure ??= { status: res.status, code: res.code, row, why: res.message };
  } else if (res instanceof Error) {
    throw res;
  } else if (res.status === 401) {
    outcome.failure ??= {
      status: 401,
      code: 'reauth_required',
      row,
      why: 'your sign-in has expired (sign in again, then import the file again)',
    };
  } else {
    const status = res.status >= 500 ? 502 : res.status;
    outcome.failure ??= {
      status,
      code:
        status >= 500 ? 'upstream_unavailable' : (upstreamErrorCode(res) ?? 'validation_failed'),
      row,
      why: upstreamMessage(res),
    };
  }
}

/**
 * POST one site. A replayed answer (the same file within the upstream's 24 h key window) may
 * name a site deleted since: then the create is made afresh under a key of its own, never
 * reported as created while nothing is there.
 */
async function createSite(
  ctx: BffContext,
  json: Record<string, string>,
  auth: Record<string, string>,
  agencyId: number,
  site: CheckedRow,
): Promise<UpstreamResponse> {
  const post = (salt?: string) =>
    ctx.upstream.request({
      method: 'POST',
      path: '/v1/site',
      headers: { ...json, 'idempotency-key': importKey(agencyId, site.body, salt) },
      body: JSON.stringify(site.body),
    });
  const res = await post();
  if (!res.replayed || res.status >= 300) return res;
  const id = (parseJson(res.body) as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'number') return res;
  const still = await ctx.upstream.request({
    method: 'GET',
    path: `/v1/site/${id}`,
    headers: auth,
  });
  // The records service still shows a deleted site by id, with its delete_date.
  const deleted =
    still.status === 404 ||
    (still.status === 200 &&
      (parseJson(still.body) as { delete_date?: unknown } | undefined)?.delete_date != null);
  return deleted ? post(`after-deleted-${id}`) : res;
}

/** Retries what may pass on a second try; the same request each time (creates keep their key). */
async function withRetries(send: () => Promise<UpstreamResponse>): Promise<UpstreamResponse> {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await send();
      const again =
        res.status >= 500 ||
        res.status === 429 ||
        (res.status === 409 && upstreamErrorCode(res) === 'idempotency_in_flight');
      if (!again || attempt >= TRIES) return res;
      const after = Number(res.retryAfter);
      await sleep(
        Number.isFinite(after) && after > 0 ? Math.min(after, 5) * 1000 : backoff(attempt),
      );
    } catch (err) {
      if (!(err instanceof UpstreamError) || attempt >= TRIES) throw err;
      await sleep(backoff(attempt));
    }
  }
}

const backoff = (attempt: number) => 200 * 2 ** (attempt - 1) * (0.5 + Math.random());

function upstreamMessage(res: UpstreamResponse): string {
  const body = parseJson(res.body) as
    { error?: { message?: unknown; fields?: { path?: unknown; message?: unknown }[] } } | undefined;
  // A batch's 422 names its items: the first one's own message says what is wrong with the row.
  const first = body?.error?.fields?.[0];
  if (typeof first?.path === 'string' && first.path.startsWith('items.')) {
    if (typeof first.message === 'string' && first.message) return first.message;
  }
  const m = body?.error?.message;
  return typeof m === 'string' && m ? m : `HTTP ${res.status}`;
}

/** The row whose write failed, in words, once every write in flight has ended. */
export function writeFailure(outcome: WriteOutcome): ImportError | null {
  const f = outcome.failure;
  if (!f) return null;
  const written = outcome.created + outcome.updated;
  return {
    row: f.row,
    field: '(row)',
    code: 'write_failed',
    // `reason`: the records service's own words, which the client translates where it knows them.
    ...(f.code === 'reauth_required'
      ? { problem: 'write_reauth', values: { written } }
      : { problem: 'write_refused', values: { written, reason: f.why } }),
    message:
      `The records service refused row ${f.row}: ${f.why}. ${written} site${written === 1 ? ' was' : 's were'} ` +
      'written before the import stopped; import the same file again to finish ' +
      '(rows already written then count as unchanged)',
  };
}
