import type { Page } from 'playwright-core';
import type { RunCounts } from '../../chaos/compare-run';
import type { Stack } from './stack';
import { localTable, outbox, TECH } from './sync-checks';

/** An outbox entry as queued on the tablet before the faults: its key and the record it creates. */
export type QueuedEntry = { id: string; entity: string; op: string; localId: string };

/**
 * One row of the fault matrix's table, counted as the headless matrix counts (test/chaos):
 * zero everywhere but `entries` is a pass. Here `wrong` also counts a local record holding a
 * server record that its own create did not make (the records service's key says which did).
 */
export type LedgerRow = RunCounts & { case: string };

const TABLE = { site: 'sites', collection: 'collections', pool: 'pools', poolTest: 'poolTests' };
type Kind = keyof typeof TABLE;
/** The server's column naming each kind's parent, and the parent's kind. */
const PARENT: Partial<Record<Kind, { column: string; kind: Kind }>> = {
  collection: { column: 'site', kind: 'site' },
  pool: { column: 'collection', kind: 'collection' },
  poolTest: { column: 'pool', kind: 'pool' },
};

/** The tablet's outbox now, as the entries a case will be judged by. */
export async function queuedEntries(page: Page): Promise<QueuedEntry[]> {
  return (await outbox(page)).map((e) => ({
    id: String(e.id),
    entity: String(e.entity),
    op: String(e.op),
    localId: String(e.localId),
  }));
}

type ServerRow = { id: number; parent: number | null };

/** Live server records of the tree under the sites with `siteCode`, by kind, read from the database. */
async function serverTree(stack: Stack, siteCode: string): Promise<Record<Kind, ServerRow[]>> {
  const q = async (sql: string, params: unknown[]) =>
    (await stack.db.query<{ id: number; parent: number | null }>(sql, params)).rows.map((r) => ({
      id: Number(r.id),
      parent: r.parent === null ? null : Number(r.parent),
    }));
  const site = await q(
    'select id, null as parent from site where agency = $1 and code = $2 and delete_date is null',
    [TECH.agencyId, siteCode],
  );
  const ids = (rows: ServerRow[]) => rows.map((r) => r.id);
  const collection = await q(
    'select id, site as parent from collection where site = any($1) and deactive_date is null',
    [ids(site)],
  );
  const pool = await q(
    'select id, collection as parent from pool where collection = any($1) and deactive_date is null',
    [ids(collection)],
  );
  const poolTest = await q(
    'select id, pool as parent from pool_test where pool = any($1) and deactive_date is null',
    [ids(pool)],
  );
  return { site, collection, pool, poolTest };
}

/**
 * Compares server and tablet record by record for the creates queued in `queued`:
 * the truth of which server record a create made is the records service's own idempotency
 * record for the entry's key (what it committed for that key, whatever anyone answered).
 */
export async function ledger(
  name: string,
  page: Page,
  stack: Stack,
  queued: QueuedEntry[],
  siteCode: string,
): Promise<LedgerRow> {
  const row: LedgerRow = {
    case: name,
    entries: queued.length,
    lost: 0,
    duplicated: 0,
    wrong: 0,
    stuck: 0,
    details: [],
  };
  const creates = queued.filter((e) => e.op === 'create');
  const { rows: keyed } = await stack.db.query<{ key: string; id: string | null }>(
    `select key, response->>'id' as id from idempotency_key
      where agency = $1 and key = any($2) and status between 200 and 299`,
    [TECH.agencyId, creates.map((e) => e.id)],
  );
  const madeBy = new Map(keyed.map((k) => [k.key, k.id === null ? null : Number(k.id)]));
  const tree = await serverTree(stack, siteCode);
  const local: Record<Kind, Map<string, Record<string, unknown>>> = {
    site: new Map(),
    collection: new Map(),
    pool: new Map(),
    poolTest: new Map(),
  };
  for (const kind of Object.keys(TABLE) as Kind[]) {
    for (const r of await localTable(page, TABLE[kind] as 'sites')) {
      local[kind].set(String(r.localId), r);
    }
  }

  const claimed: Record<Kind, Set<number>> = {
    site: new Set(),
    collection: new Set(),
    pool: new Set(),
    poolTest: new Set(),
  };
  for (const e of creates) {
    const kind = e.entity as Kind;
    const made = madeBy.get(e.id) ?? null;
    const server = made === null ? undefined : tree[kind].find((r) => r.id === made);
    const mine = local[kind].get(e.localId);
    if (!server) {
      row.lost += 1;
      row.details.push(`lost: ${kind} ${e.localId} has no server record for its key`);
      continue;
    }
    claimed[kind].add(server.id);
    if (!mine) {
      row.lost += 1;
      row.details.push(`lost: ${kind} ${e.localId} (server ${server.id}) is gone from the tablet`);
      continue;
    }
    if (mine.serverId !== server.id) {
      row.wrong += 1;
      row.details.push(
        `wrong: ${kind} ${e.localId} holds server ${String(mine.serverId)}, its create made ${server.id}`,
      );
      continue;
    }
    const parent = PARENT[kind];
    if (parent) {
      const localParent = local[parent.kind].get(String(mine.parentLocalId));
      if (!localParent || localParent.serverId !== server.parent) {
        row.wrong += 1;
        row.details.push(
          `wrong: ${kind} ${server.id} hangs under ${parent.column} ${String(server.parent)}, ` +
            `its local parent is server ${String(localParent?.serverId)}`,
        );
      }
    }
  }
  for (const kind of Object.keys(TABLE) as Kind[]) {
    const extra = tree[kind].filter((r) => !claimed[kind].has(r.id));
    row.duplicated += extra.length;
    for (const r of extra) row.details.push(`duplicated: ${kind} ${r.id} made by no queued key`);
  }
  const left = await outbox(page);
  row.stuck += left.length;
  for (const e of left) row.details.push(`stuck: ${String(e.entity)} ${String(e.state)}`);
  for (const e of creates) {
    const mine = local[e.entity as Kind].get(e.localId);
    if (mine && mine.syncState !== 'synced' && left.length === 0) {
      row.stuck += 1;
      row.details.push(`stuck: ${e.entity} ${e.localId} shows ${String(mine.syncState)}`);
    }
  }
  return row;
}

/** Prints a ledger row as a line of the fault matrix's table. */
export function printLedger(row: LedgerRow): void {
  const cells = [row.case, row.entries, row.lost, row.duplicated, row.wrong, row.stuck];
  console.log(
    `chaos-browser | case | entries | lost | duplicated | wrong | stuck |\n` +
      `chaos-browser | ${cells.join(' | ')} |` +
      (row.details.length ? `\n  ${row.details.join('\n  ')}` : ''),
  );
}
