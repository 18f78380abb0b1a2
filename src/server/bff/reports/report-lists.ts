import { ENTITY } from '#shared/entities';
import { encodeListQuery } from '#shared/list-query';
import { HttpError } from '../../http/http-error';
import { reauthRequired } from '../session-errors';
import type { BffContext } from '../context';
import type { StoredSession } from '../session-store';
import { ReportWorker, type ListsHandle } from './report-worker';

/**
 * How long read lists are kept. Writes through this BFF drop them at once (proxy-routes.ts);
 * the TTL bounds how stale they get after writes made elsewhere (another client of a hosted
 * service, the records service's command line).
 */
const REPORT_LISTS_TTL_MS = 5 * 60_000;

/**
 * An agency's lists as the report worker holds them (report-worker.ts). Whoever gets one from
 * `reportLists` holds a reference and releases it once its report is computed.
 */
export type ReportLists = ListsHandle;

type Entry = { lists: ListsHandle; readAtMs: number };

/** One read of an agency's lists under way, and the requests waiting for it. */
type Read = {
  /** The agency's generation when it started: a write since makes its lists stale. */
  generation: number;
  /** Id hash of the session whose token it reads with. */
  owner: string;
  promise: Promise<ReportLists>;
  /** Stops the read between pages once no request waits for it. */
  controller: AbortController;
  waiters: number;
};

/** The read was stopped: every request that waited for it had gone. */
export class ReadAbandoned extends Error {
  constructor() {
    super('Every request waiting for this read of the lists has gone');
    this.name = 'ReadAbandoned';
  }
}

/**
 * How long a session whose token the upstream accepted is given kept lists without asking again
 * (as long as the BFF trusts a session row read from its table, SESSION_CACHE_MS).
 */
const TOKEN_CONFIRMED_MS = 10_000;

/**
 * The agency's collections and pools as the reports read them, one entry per agency.
 *
 * Invariants (issue 36 N2: writes once started a full read per report, and none ever stopped):
 * 1. At most one read of an agency's lists runs at a time; a request that finds it running with
 *    the agency's current generation joins it.
 * 2. A write for the agency (`drop`) bumps its generation: the running read neither stores its
 *    lists nor is joined by requests that arrive after the write. Those wait for it to end (its
 *    own waiters served, or gone) and then start, or join, the next read: lists as fresh as the
 *    write, and still one read at a time however many writes come.
 * 3. A read is stopped between pages as soon as no request waits for it (each waiter leaves when
 *    its client has gone).
 * A read runs with the token of the session that started it; a session that joined it and sees
 * it fail for that token (reauth_required) reads again with its own, so one person's expired
 * sign-in never signs out another.
 */
class ReportListCache {
  private readonly byAgency = new Map<number, Entry>();
  private readonly running = new Map<number, Read>();
  private readonly generation = new Map<number, number>();

  readonly worker: ReportWorker;

  constructor(private readonly ctx: BffContext) {
    this.worker = new ReportWorker({
      upstreamUrl: ctx.upstream.baseUrl,
      timeouts: ctx.upstream.timeouts,
    });
  }

  async get(session: StoredSession, left: AbortSignal): Promise<ReportLists> {
    const agencyId = session.info.agency.id;
    for (;;) {
      left.throwIfAborted();
      const cached = this.byAgency.get(agencyId);
      if (cached?.lists.gone)
        this.forget(agencyId); // the worker ended: its lists with it
      else if (cached && this.ctx.now().getTime() - cached.readAtMs < REPORT_LISTS_TTL_MS) {
        return this.confirmedFor(session, cached.lists.acquire());
      }
      const read = this.running.get(agencyId);
      if (!read) return this.wait(this.start(session), left);
      if (read.generation !== this.generationOf(agencyId)) {
        // Invariant 2: a read from before the agency's last write ends first.
        await settled(read.promise, left);
        continue;
      }
      if (read.owner === session.idHash) return this.wait(read, left);
      try {
        return await this.confirmedFor(session, await this.wait(read, left));
      } catch (err) {
        if (!(err instanceof HttpError && err.code === 'reauth_required')) throw err;
        // The other session's token was refused (its read is over): this session's own may be
        // good, and the next turn starts a read with it.
      }
    }
  }

  /** `lists` once the session's own token is confirmed; released if it is refused. */
  private async confirmedFor(session: StoredSession, lists: ReportLists): Promise<ReportLists> {
    try {
      await this.confirm(session);
      return lists;
    } catch (err) {
      lists.release();
      throw err;
    }
  }

  /** The agency's kept lists go (the cache's reference is released). */
  private forget(agencyId: number): void {
    this.byAgency.get(agencyId)?.lists.release();
    this.byAgency.delete(agencyId);
  }

  private generationOf(agencyId: number): number {
    return this.generation.get(agencyId) ?? 0;
  }

  /** When each session's token was last accepted by the upstream (ms), by id hash. */
  private readonly confirmed = new Map<string, number>();

  /**
   * Lists read with another token (or a while ago) are only given to a session whose own token
   * the upstream still accepts: an account disabled or a token revoked upstream gets nothing of
   * the agency's from what the BFF keeps (reauth_required). One row asked, at most once per
   * TOKEN_CONFIRMED_MS per session. Only a refusal counts: an upstream that does not answer
   * now revoked nothing.
   */
  private async confirm(session: StoredSession): Promise<void> {
    const at = this.ctx.now().getTime();
    const last = this.confirmed.get(session.idHash);
    if (last !== undefined && at - last < TOKEN_CONFIRMED_MS && at >= last) return;
    let status: number;
    try {
      ({ status } = await this.ctx.upstream.request({
        method: 'GET',
        path: ENTITY.collection.path,
        query: encodeListQuery({ pageSize: 1, fields: ['id'] }),
        headers: { authorization: `Bearer ${session.token}`, accept: 'application/json' },
      }));
    } catch {
      return;
    }
    if (status === 401) throw reauthRequired();
    if (status < 300) this.accepted(session.idHash, at);
  }

  private accepted(idHash: string, at: number): void {
    this.confirmed.delete(idHash);
    this.confirmed.set(idHash, at);
    if (this.confirmed.size > 10_000) {
      this.confirmed.delete(this.confirmed.keys().next().value as string);
    }
  }

  /** A new read with this session's token; the agency's requests join it until it settles. */
  private start(session: StoredSession): Read {
    const agencyId = session.info.agency.id;
    const generation = this.generationOf(agencyId);
    const controller = new AbortController();
    const readAt = this.ctx.now().toISOString();
    const read$ = this.worker.read(session.token, agencyId, readAt, controller.signal);
    const promise = read$.then((lists) => {
      this.accepted(session.idHash, Date.parse(readAt));
      if (this.generationOf(agencyId) === generation) {
        // The read's own reference becomes the cache's.
        this.forget(agencyId);
        this.byAgency.set(agencyId, { lists, readAtMs: Date.parse(readAt) });
      } else {
        // Stale for later requests: its waiters take their references as it settles (in
        // wait()'s callbacks, this same turn), then the read's own goes.
        setImmediate(() => lists.release());
      }
      return lists;
    });
    const read: Read = { generation, owner: session.idHash, promise, controller, waiters: 0 };
    this.running.set(agencyId, read);
    const clear = () => {
      if (this.running.get(agencyId) === read) this.running.delete(agencyId);
    };
    promise.then(clear, clear);
    return read;
  }

  /**
   * The read's lists for one request, which stops waiting when `left` aborts (its client has
   * gone); the last waiter to leave stops the read (invariant 3).
   */
  private wait(read: Read, left: AbortSignal): Promise<ReportLists> {
    left.throwIfAborted();
    read.waiters += 1;
    return new Promise<ReportLists>((resolve, reject) => {
      let waiting = true;
      const stop = () => {
        if (!waiting) return false;
        waiting = false;
        read.waiters -= 1;
        left.removeEventListener('abort', leave);
        return true;
      };
      const leave = () => {
        if (!stop()) return;
        reject(left.reason);
        if (read.waiters === 0) read.controller.abort(new ReadAbandoned());
      };
      left.addEventListener('abort', leave, { once: true });
      read.promise.then(
        (lists) => stop() && resolve(lists.acquire()),
        (err: unknown) => stop() && reject(err),
      );
    });
  }

  /** The agency's data changed: kept lists go, and a read under way is no longer joined. */
  drop(agencyId: number): void {
    this.generation.set(agencyId, this.generationOf(agencyId) + 1);
    this.forget(agencyId);
  }
}

/** Resolves once `p` has settled (either way), or rejects when `left` aborts first. */
function settled(p: Promise<unknown>, left: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const leave = () => reject(left.reason);
    left.addEventListener('abort', leave, { once: true });
    const done = () => {
      left.removeEventListener('abort', leave);
      resolve();
    };
    p.then(done, done);
  });
}

const caches = new WeakMap<BffContext, ReportListCache>();
function cacheOf(ctx: BffContext): ReportListCache {
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new ReportListCache(ctx);
    caches.set(ctx, cache);
  }
  return cache;
}

/** The BFF's report worker (one per BFF: its lists and its page slots are the process's). */
export function reportWorkerOf(ctx: BffContext): ReportWorker {
  return cacheOf(ctx).worker;
}

/**
 * The signed-in agency's collections and pools, read from the upstream with the session's token
 * by the report worker; the caller releases them once its report is computed. `left` aborts when the request's client has gone: it stops waiting, and a read nobody waits for
 * any more stops.
 */
export async function reportLists(
  ctx: BffContext,
  session: StoredSession,
  left: AbortSignal = new AbortController().signal,
): Promise<ReportLists> {
  try {
    return await cacheOf(ctx).get(session, left);
  } catch (err) {
    if (err instanceof HttpError && err.code === 'reauth_required') {
      await ctx.sessions.expireToken(session, ctx.now());
    }
    throw err;
  }
}

/** Forgets an agency's read lists: its data changed (a successful write through the proxy). */
export function dropReportLists(ctx: BffContext, agencyId: number): void {
  caches.get(ctx)?.drop(agencyId);
}
