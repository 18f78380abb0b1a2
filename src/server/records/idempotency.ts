import { createHash, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/database';
import type { RecordsContext } from './context';
import { HttpError } from '../http/http-error';
import { isVersionedPath } from './auth/authenticate';
import { IDEMPOTENCY_WINDOW_MS } from '#shared/schemas/outbox';

/**
 * A claim with no stored answer older than this may be taken over by the next request with the
 * key. Taking over is always safe: a committed create stores its answer in its own transaction,
 * and only while its claim_id still holds the key, so a slow original that loses its claim rolls
 * back instead of creating a second record. The lease only spares a slow original that work.
 */
export const CLAIM_LEASE_MS = 15 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,200}$/;

/**
 * Response header naming the Idempotency-Key this service honoured, on every answer to a keyed
 * POST (created, replayed or refused). A BFF reads it to know it may send a lost create again
 * with the same key instead of guessing which stored record was its own.
 */
export const KEY_ECHO_HEADER = 'idempotency-key';

export type Claim = { agency: number; key: string; claimId: string; settled: boolean };

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim: Claim | null;
  }
  interface FastifyContextConfig {
    /** false: never store or replay this route's answer (it holds a secret). */
    idempotency?: boolean;
  }
}

/** JSON with object keys sorted, so the same body in another key order hashes the same. */
export function stableStringify(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
}

function requestHash(req: FastifyRequest): string {
  const path = req.url.split('?')[0];
  return createHash('sha256')
    .update(`${req.method} ${path}\n${stableStringify(req.body)}`)
    .digest('hex');
}

type KeyRow = { request_hash: string; status: number | null; response: unknown; inserted: boolean };

/**
 * Idempotent creates (contract §9), as three hooks around every POST under /v1 that carries
 * `Idempotency-Key`:
 * 1. preValidation (after authentication and body parsing, before the route schema reads the
 *    body, so a key reused with another body is refused as reused even when that body is invalid,
 *    and the hash is of the body as sent): claims (agency, key) with one atomic
 *    INSERT … ON CONFLICT, under a fresh `claim_id`. A row older than 24 h is taken over as if
 *    absent, and so is a claim with no answer older than CLAIM_LEASE_MS (its request died before
 *    committing). If another request holds the key: different body → 422 idempotency_key_reused;
 *    no answer stored yet → 409 idempotency_in_flight; else the stored status and body are
 *    replayed and the route never runs.
 * 2. The create routes run through `createOnce` (create-once.ts): the answer is stored with the
 *    claim inside the create's own transaction, only while `claim_id` is still this request's. So
 *    a committed record always has its answer stored (a crash after commit replays it), and a
 *    request whose claim was taken over rolls back instead of creating a second record.
 * 3. onSend: any other 2xx answer is stored with the claim (same claim_id condition). Any non-2xx
 *    answer releases the claim: nothing was created, so a retry must run the route again.
 * 4. onResponse: a claim still unsettled (the reply failed before onSend) is released.
 * Every answer to a keyed POST carries KEY_ECHO_HEADER, so a client can tell the key was honoured.
 */
export function idempotency(app: FastifyInstance, ctx: RecordsContext): void {
  if (!ctx.idempotency) return;
  app.decorateRequest('idempotencyClaim', null);
  // The embedded database has one process: at start, every unanswered claim belongs to a request
  // that died with the previous process (its transaction rolled back), so its retry need not wait.
  if (ctx.db.kind === 'pglite') {
    app.addHook('onReady', async () => {
      await ctx.db.query('delete from idempotency_key where status is null');
    });
  }

  const release = async (claim: Claim) => {
    claim.settled = true;
    await ctx.db.query(
      'delete from idempotency_key where agency = $1 and key = $2 and status is null and claim_id = $3',
      [claim.agency, claim.key, claim.claimId],
    );
  };

  app.addHook('preValidation', async (req, reply) => {
    if (req.method !== 'POST' || !isVersionedPath(req.url) || !req.caller) return;
    // Routes whose answer is a secret (a new agency token) opt out: it must never be stored.
    if ((req.routeOptions.config as { idempotency?: boolean } | undefined)?.idempotency === false)
      return;
    const header = req.headers['idempotency-key'];
    if (header === undefined) return;
    const key = Array.isArray(header) ? header[0] : header;
    if (!KEY_PATTERN.test(key)) {
      throw new HttpError(
        400,
        'bad_request',
        'Idempotency-Key must be 1-200 visible ASCII characters (a UUID)',
      );
    }
    reply.header(KEY_ECHO_HEADER, key);
    const agency = req.caller.agencyId;
    const hash = requestHash(req);
    const now = ctx.now();
    const claimId = randomUUID();
    const { rows } = await ctx.db.query<KeyRow>(
      `insert into idempotency_key (agency, key, request_hash, method, path, created_at, claim_id)
       values ($1, $2, $3, $4, $5, $6, $9)
       on conflict (agency, key) do update
         set request_hash = excluded.request_hash, method = excluded.method, path = excluded.path,
             status = null, response = null, created_at = excluded.created_at,
             claim_id = excluded.claim_id
         where idempotency_key.created_at < $7
            or (idempotency_key.status is null and idempotency_key.created_at < $8
                and idempotency_key.request_hash = excluded.request_hash)
       returning request_hash, status, response, true as inserted`,
      [
        agency,
        key,
        hash,
        req.method,
        req.url.split('?')[0],
        now.toISOString(),
        new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS).toISOString(),
        new Date(now.getTime() - CLAIM_LEASE_MS).toISOString(),
        claimId,
      ],
    );
    if (rows.length > 0) {
      req.idempotencyClaim = { agency, key, claimId, settled: false };
      return;
    }
    const existing = (
      await ctx.db.query<KeyRow>(
        'select request_hash, status, response from idempotency_key where agency = $1 and key = $2',
        [agency, key],
      )
    ).rows[0];
    if (!existing) {
      // Released between our INSERT and SELECT: the first request failed; ask for a retry.
      throw new HttpError(
        409,
        'idempotency_in_flight',
        'A request with this Idempotency-Key just finished; retry it',
      );
    }
    if (existing.request_hash !== hash) {
      const message =
        'This Idempotency-Key was already used for a different request; use a new key';
      // Contract §2: a 422 names its fields; here the failing "field" is the header.
      throw new HttpError(422, 'idempotency_key_reused', message, [
        { path: 'Idempotency-Key', message },
      ]);
    }
    if (existing.status === null) {
      throw new HttpError(
        409,
        'idempotency_in_flight',
        'A request with this Idempotency-Key is still being processed; retry shortly',
        undefined,
        {
          'Retry-After': '1',
        },
      );
    }
    reply.header('idempotent-replayed', 'true');
    reply.type('application/json; charset=utf-8');
    return reply.status(existing.status).send(existing.response);
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const claim = req.idempotencyClaim;
    if (!claim || claim.settled) return payload;
    if (reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === 'string') {
      let body: unknown;
      try {
        body = JSON.parse(payload);
      } catch {
        body = payload;
      }
      claim.settled = true;
      await storeAnswer(ctx.db, claim, reply.statusCode, body);
    } else {
      await release(claim);
    }
    return payload;
  });

  app.addHook('onResponse', async (req) => {
    const claim = req.idempotencyClaim;
    if (claim && !claim.settled) await release(claim);
  });
}

/**
 * Stores a 2xx answer with the claim, only while `claimId` still holds the key. Returns false when
 * the claim was taken over (this request outlived its lease): the caller must not create.
 */
export async function storeAnswer(
  q: Queryable,
  claim: Claim,
  status: number,
  body: unknown,
): Promise<boolean> {
  const { rows } = await q.query(
    `update idempotency_key set status = $3, response = $4::jsonb
      where agency = $1 and key = $2 and claim_id = $5 returning key`,
    [claim.agency, claim.key, status, JSON.stringify(body), claim.claimId],
  );
  return rows.length === 1;
}
