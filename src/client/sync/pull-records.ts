import { ENTITY_PATHS, MAX_PAGE_SIZE, refId, type Entity } from '../../shared';
import { request } from '../lib/http';
import { serverToData } from './field-values';
import { recordTable, type AnyRecordRow } from './record-tables';
import type { SyncContext } from './sync-context';
import { SyncError, classify } from './sync-error';

/** What the last pull of an entity reached, kept in the `meta` table. */
export type PullMark = { maxUpdated: string | null; pulledAt: number };

export const PULL_META_KEY: Record<'site' | 'collection', string> = {
  site: 'sync.pull.site',
  collection: 'sync.pull.collection',
};

export type PullOptions = {
  /** Collections dated within this many days back are pulled. */
  collectionDays: number;
  pageSize: number;
};

export const DEFAULT_PULL: PullOptions = { collectionDays: 30, pageSize: MAX_PAGE_SIZE };

/**
 * Brings the agency's sites and the last `collectionDays` days of collections into Dexie.
 * Incremental after the first pull: only rows with `updated` after the last pull's newest.
 * Throws a SyncError when a page cannot be fetched (what was stored before stays stored).
 */
export async function pullRecords(
  ctx: SyncContext,
  options: PullOptions = DEFAULT_PULL,
): Promise<{ site: number; collection: number }> {
  // Sites first: a pulled collection finds its site's localId.
  const site = await pullEntity(ctx, 'site', {}, options);
  const since = new Date(ctx.now() - options.collectionDays * 86_400_000)
    .toISOString()
    .slice(0, 10);
  const collection = await pullEntity(
    ctx,
    'collection',
    { 'query[collection_date][$gte]': since },
    options,
  );
  return { site, collection };
}

async function pullEntity(
  ctx: SyncContext,
  entity: 'site' | 'collection',
  filter: Record<string, string>,
  options: PullOptions,
): Promise<number> {
  const key = PULL_META_KEY[entity];
  const mark = (await ctx.db.meta.get(key))?.value as PullMark | undefined;
  const startedAt = ctx.now();
  let maxUpdated = mark?.maxUpdated ?? null;
  let stored = 0;
  for (let page = 1; ; page += 1) {
    const params = new URLSearchParams({
      pageSize: String(options.pageSize),
      page: String(page),
      sort: 'id',
      ...filter,
    });
    if (mark?.maxUpdated) params.set('query[updated][$gt]', mark.maxUpdated);
    let result;
    try {
      result = await request<{ rows: Record<string, unknown>[]; count?: number }>(
        `${ctx.baseUrl}/api/v1${ENTITY_PATHS[entity]}?${params.toString()}`,
        { headers: ctx.headers, timeoutMs: ctx.timeoutMs },
      );
    } catch (err) {
      throw classify(err) as SyncError;
    }
    const error = classify(result);
    if (error || !result.ok) throw error ?? new SyncError('server', result.status, null);
    const rows = Array.isArray(result.body?.rows) ? result.body.rows : [];
    stored += await storePage(ctx, entity, rows);
    for (const row of rows) {
      if (typeof row.updated === 'string' && (maxUpdated === null || row.updated > maxUpdated))
        maxUpdated = row.updated;
    }
    const count = result.body?.count;
    const done =
      rows.length < options.pageSize ||
      (typeof count === 'number' && page * options.pageSize >= count);
    if (done) break;
  }
  const next: PullMark = { maxUpdated, pulledAt: startedAt };
  await ctx.db.meta.put({ key, value: next });
  return stored;
}

/**
 * Upserts one page by serverId, in one transaction. Invariant: a record with a local change not
 * yet on the server (syncState other than 'synced', or any entry in the outbox) is never
 * overwritten: the user's edit wins locally until the outbox resolves it.
 */
async function storePage(
  ctx: SyncContext,
  entity: Entity,
  rows: Record<string, unknown>[],
): Promise<number> {
  const { db } = ctx;
  const table = recordTable(db, entity);
  const parentTable = entity === 'collection' ? recordTable(db, 'site') : null;
  const tables = parentTable ? [table, parentTable, db.outbox] : [table, db.outbox];
  return db.transaction('rw', tables, async () => {
    let stored = 0;
    for (const row of rows) {
      if (typeof row.id !== 'number') continue;
      const existing = await table.where('serverId').equals(row.id).first();
      if (existing) {
        if (existing.syncState !== 'synced') continue;
        if ((await db.outbox.where('localId').equals(existing.localId).count()) > 0) continue;
      }
      let parentLocalId = existing?.parentLocalId ?? null;
      if (parentTable) {
        const siteId = refId(row.site as number | { id: number } | null | undefined);
        const parent =
          siteId === null ? undefined : await parentTable.where('serverId').equals(siteId).first();
        parentLocalId = parent?.localId ?? null;
      }
      const data = serverToData(entity, row);
      const next: AnyRecordRow & Record<string, unknown> = {
        localId: existing?.localId ?? crypto.randomUUID(),
        serverId: row.id,
        syncState: 'synced',
        data,
        server: row,
        baseUpdated: typeof row.updated === 'string' ? row.updated : null,
        parentLocalId,
        updatedAt: ctx.now(),
        problem: null,
        ...(entity === 'site'
          ? { code: String(row.code ?? ''), name: String(row.name ?? '') }
          : { collectionDate: String(row.collection_date ?? '') }),
      };
      await table.put(next);
      stored += 1;
    }
    return stored;
  });
}
