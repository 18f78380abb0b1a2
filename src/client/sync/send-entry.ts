import { type OutboxEntry } from '#shared';
import { ENTITY } from '#shared/entities';
import { request, type HttpResult } from '../lib/http';
import { conflictingFields } from './detect-conflict';
import { keyMayBeForgotten, markSending } from './entry-sending';
import { recordTable } from '../db/record-tables';
import { resolveRefs } from './resolve-refs';
import type { SyncContext } from './sync-context';
import { SyncError, classify, outcomeUnknown } from './sync-error';

export type SendOutcome =
  | { kind: 'ack'; entry: OutboxEntry; body: unknown }
  | { kind: 'error'; entry: OutboxEntry; error: SyncError }
  | {
      kind: 'conflict';
      entry: OutboxEntry;
      server: Record<string, unknown>;
      fields: string[];
      error: SyncError;
    }
  /** The entry left the outbox or changed state while waiting (discarded, replaced by an edit). */
  | { kind: 'gone' };

/** Runs one HTTP request and classifies what came back (a thrown NetworkError included). */
async function call(
  ctx: SyncContext,
  path: string,
  init: {
    method: 'GET' | 'POST' | 'PUT' | 'DELETE';
    body?: unknown;
    headers?: Record<string, string>;
  },
): Promise<{ result: HttpResult | null; error: SyncError | null }> {
  try {
    const result = await request(`${ctx.baseUrl}/api${path}`, {
      method: init.method,
      body: init.body,
      headers: { ...ctx.headers, ...init.headers },
      timeoutMs: ctx.timeoutMs,
    });
    return { result, error: classify(result) };
  } catch (err) {
    return { result: null, error: classify(err) };
  }
}

/**
 * A create whose key the servers may have forgotten while an earlier request with it may have
 * reached them (keyMayBeForgotten): parked as the BFF parks a create it cannot tell about, with
 * Send again (a new key) or Discard for the technician, never sent again on a guess.
 */
const keyForgotten = () =>
  outcomeUnknown(
    "Sent more than a day ago (or before the tablet's clock was changed) and no answer came " +
      'back: it may already be on the server. ' +
      "Check the server's records before sending again",
  );

function rejected(message: string, field?: string): SyncError {
  return new SyncError('rejected', null, {
    code: 'unsendable',
    message,
    ...(field ? { fields: [{ path: field, message }] } : {}),
  });
}

/**
 * Sends one entry:
 * - create → POST with Idempotency-Key = entry.id; frozen before the first send, so a retry
 *   carries the same key and the same body and the server replays its first answer. The servers
 *   keep a key for a day: a create a request may have reached more than KEY_TRUSTED_FOR_MS ago
 *   is parked instead (keyForgotten), as a retry then could make a second record;
 * - update → GET the server's record, stop on a conflict, else PUT only the changed fields;
 * - delete → DELETE (already gone on the server counts as done).
 * `serverIds`: server ids the drain already knows, by `entity:localId` (see resolveRefs).
 * `marked`: a create already marked as being sent and frozen (acknowledgeAll's `thenSend`), as
 * stored then.
 */
export async function sendEntry(
  ctx: SyncContext,
  queued: OutboxEntry,
  serverIds?: ReadonlyMap<string, number>,
  marked = false,
): Promise<SendOutcome> {
  const base = ENTITY[queued.entity].path;
  if (queued.op === 'create') {
    let entry = marked ? queued : await markSending(ctx, queued.id, true);
    if (!entry) return { kind: 'gone' };
    let resolved = await resolveRefs(ctx, entry, serverIds);
    if (!resolved.ok && marked) {
      // Marked in its parent's acknowledgement, and sent as that mark read it: another
      // acknowledgement since may have moved its parent reference (absorbDuplicate). Read again.
      const stored = await ctx.db.outbox.get(queued.id);
      if (stored?.state !== 'sending') return { kind: 'gone' };
      entry = stored;
      resolved = await resolveRefs(ctx, entry, serverIds);
    }
    if (!resolved.ok)
      return { kind: 'error', entry, error: rejected(resolved.message, resolved.field) };
    if (keyMayBeForgotten(entry, ctx.now())) return { kind: 'error', entry, error: keyForgotten() };
    const { result, error } = await call(ctx, base, {
      method: 'POST',
      body: resolved.payload,
      headers: { 'Idempotency-Key': entry.id },
    });
    return error
      ? { kind: 'error', entry, error }
      : { kind: 'ack', entry, body: result?.ok ? result.body : null };
  }

  let entry = await markSending(ctx, queued.id, queued.op === 'delete');
  if (!entry) return { kind: 'gone' };
  let record = await recordTable(ctx.db, entry.entity).get(entry.localId);
  if (!record) {
    // A pulled copy's entry whose record was folded, since its mark, into the record of its lost
    // create (absorbDuplicate moves the entry in the same transaction): read where it is now.
    const moved = await ctx.db.outbox.get(entry.id);
    if (moved && moved.localId !== entry.localId) {
      entry = moved;
      record = await recordTable(ctx.db, entry.entity).get(entry.localId);
    }
  }
  if (!record || record.serverId === null) {
    return { kind: 'error', entry, error: rejected('This record was never saved to the server') };
  }
  const path = `${base}/${record.serverId}`;

  if (entry.op === 'delete') {
    const { result, error } = await call(ctx, path, { method: 'DELETE' });
    if (error?.status === 404) return { kind: 'ack', entry, body: null };
    return error
      ? { kind: 'error', entry, error }
      : { kind: 'ack', entry, body: result?.ok ? result.body : null };
  }

  // Step 1 of an update: what does the server hold now?
  const current = await call(ctx, path, { method: 'GET' });
  if (current.error) {
    if (current.error.status === 404) {
      return {
        kind: 'error',
        entry,
        error: rejected('This record no longer exists on the server'),
      };
    }
    return { kind: 'error', entry, error: current.error };
  }
  const server = (current.result?.ok ? current.result.body : null) as Record<
    string,
    unknown
  > | null;
  if (server) {
    const fields = conflictingFields(entry, server);
    if (fields.length > 0) {
      const error = new SyncError('conflict', 409, {
        code: 'conflict',
        message: `Changed on the server since your edit: ${fields.join(', ')}`,
        fields: fields.map((path) => ({ path, message: 'Also changed on the server' })),
      });
      return { kind: 'conflict', entry, server, fields, error };
    }
  }
  // Step 2: no conflict. From here the payload is fixed.
  const frozen = await markSending(ctx, entry.id, true);
  if (!frozen) return { kind: 'gone' };
  const resolved = await resolveRefs(ctx, frozen, serverIds);
  if (!resolved.ok)
    return { kind: 'error', entry: frozen, error: rejected(resolved.message, resolved.field) };
  const { result, error } = await call(ctx, path, { method: 'PUT', body: resolved.payload });
  return error
    ? { kind: 'error', entry: frozen, error }
    : { kind: 'ack', entry: frozen, body: result?.ok ? result.body : null };
}
