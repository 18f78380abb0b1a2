import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RecordsContext } from './context';
import { ApiError } from './errors';
import { isVersionedPath } from './auth/authenticate';

/** Contract §9: a key is remembered per agency for 24 hours. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,200}$/;

type Claim = { agency: number; key: string; settled: boolean };

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
 * 1. preHandler (after authentication and body parsing): claims (agency, key) with one atomic
 *    INSERT … ON CONFLICT. A row older than 24 h is taken over as if absent. If another request
 *    holds the key: different body → 422 idempotency_key_reused; no answer stored yet → 409
 *    idempotency_in_flight; else the stored status and body are replayed and the route never runs.
 * 2. onSend: a 2xx answer is stored with the claim. Any other answer releases the claim: nothing
 *    was created, so a retry must run the route again rather than replay a failure.
 * 3. onResponse: a claim still unsettled (the reply failed before onSend) is released.
 * Known limit: if the process dies between the route's commit and onSend, the key stays
 * "in flight" until it expires; the BFF's journal covers that case (ARCHITECTURE.md).
 */
export function idempotency(app: FastifyInstance, ctx: RecordsContext): void {
  if (!ctx.idempotency) return;
  app.decorateRequest('idempotencyClaim', null);

  const release = async (claim: Claim) => {
    claim.settled = true;
    await ctx.db.query(
      'delete from idempotency_key where agency = $1 and key = $2 and status is null',
      [claim.agency, claim.key],
    );
  };

  app.addHook('preHandler', async (req, reply) => {
    if (req.method !== 'POST' || !isVersionedPath(req.url) || !req.caller) return;
    // Routes whose answer is a secret (a new agency token) opt out: it must never be stored.
    if ((req.routeOptions.config as { idempotency?: boolean } | undefined)?.idempotency === false)
      return;
    const header = req.headers['idempotency-key'];
    if (header === undefined) return;
    const key = Array.isArray(header) ? header[0] : header;
    if (!KEY_PATTERN.test(key)) {
      throw new ApiError(
        400,
        'bad_request',
        'Idempotency-Key must be 1-200 visible ASCII characters (a UUID)',
      );
    }
    const agency = req.caller.agencyId;
    const hash = requestHash(req);
    const now = ctx.now();
    const { rows } = await ctx.db.query<KeyRow>(
      `insert into idempotency_key (agency, key, request_hash, method, path, created_at)
       values ($1, $2, $3, $4, $5, $6)
       on conflict (agency, key) do update
         set request_hash = excluded.request_hash, method = excluded.method, path = excluded.path,
             status = null, response = null, created_at = excluded.created_at
         where idempotency_key.created_at < $7
       returning request_hash, status, response, true as inserted`,
      [
        agency,
        key,
        hash,
        req.method,
        req.url.split('?')[0],
        now.toISOString(),
        new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS).toISOString(),
      ],
    );
    if (rows.length > 0) {
      req.idempotencyClaim = { agency, key, settled: false };
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
      throw new ApiError(
        409,
        'idempotency_in_flight',
        'A request with this Idempotency-Key just finished; retry it',
      );
    }
    if (existing.request_hash !== hash) {
      const message =
        'This Idempotency-Key was already used for a different request; use a new key';
      // Contract §2: a 422 names its fields; here the failing "field" is the header.
      throw new ApiError(422, 'idempotency_key_reused', message, [
        { path: 'Idempotency-Key', message },
      ]);
    }
    if (existing.status === null) {
      throw new ApiError(
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
      await ctx.db.query(
        'update idempotency_key set status = $3, response = $4::jsonb where agency = $1 and key = $2',
        [claim.agency, claim.key, reply.statusCode, JSON.stringify(body)],
      );
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
