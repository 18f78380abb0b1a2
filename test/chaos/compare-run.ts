import { ENTITY_TABLE, PARENT_FIELD } from '../../src/client/db/database';
import { recordTable } from '../../src/client/db/record-tables';
import { sameValue, serverFieldValue } from '../../src/client/sync';
import { normalizeValue } from '../../src/client/db/field-values';
import type { Entity } from '../../src/shared';
import type { Tablet } from './tablet';

export type RunCounts = {
  /** Outbox entries the run wrote. */
  entries: number;
  /**
   * A record the user kept whose data is not on the server as saved: vanished from the tablet,
   * never given a server record, its server record missing, a field differing (an edit that never
   * arrived); or a record the user deleted still live on the server.
   */
  lost: number;
  /** Live server records of the run that no record on the tablet owns (a second copy). */
  duplicated: number;
  /**
   * A record answered with a server id another record of the run already got, or whose server
   * record hangs under another parent than its own parent's server record.
   */
  wrong: number;
  /** Outbox entries left once the engine settled with the faults off (parked ones included). */
  stuck: number;
  details: string[];
};

type ServerRow = Record<string, unknown> & { id: number };
type ReadRecords = <T>(pathAndQuery: string) => Promise<T>;

const LIST_PATH: Record<Entity, string> = {
  site: '/v1/site',
  collection: '/v1/arthropod/collection',
  pool: '/v1/arthropod/pool',
  poolTest: '/v1/arthropod/pool/test',
};
const CHILD: Partial<Record<Entity, Entity>> = {
  site: 'collection',
  collection: 'pool',
  pool: 'poolTest',
};

/**
 * Fields the server derives from OTHER records (contract §4: a pool's definitive result is its
 * best test; its location is its collection's site). A tablet copy pulled before a test arrived
 * holds the old value; nothing the user saved differs, so they are not compared (seed 24: a pool
 * pulled before its test was counted lost with `result: tablet null, server 630`).
 */
const DERIVED: Partial<Record<Entity, ReadonlySet<string>>> = {
  pool: new Set(['result', 'test', 'location']),
};

/** Live records of one kind whose `field` is one of `values` (one page of up to 1,000). */
async function listWhere(
  read: ReadRecords,
  entity: Entity,
  field: string,
  values: Array<string | number>,
): Promise<ServerRow[]> {
  if (values.length === 0) return [];
  const q = values.map((v, i) => `query[${field}][$in][${i}]=${encodeURIComponent(v)}`).join('&');
  const { rows } = await read<{ rows: ServerRow[] }>(`${LIST_PATH[entity]}?pageSize=1000&${q}`);
  return rows;
}

/** Every live server record under the run's sites, by kind and id, read from the records service. */
async function serverTree(
  read: ReadRecords,
  siteCodes: string[],
): Promise<Record<Entity, Map<number, ServerRow>>> {
  const tree = {} as Record<Entity, Map<number, ServerRow>>;
  let rows = await listWhere(read, 'site', 'code', siteCodes);
  let entity: Entity | undefined = 'site';
  while (entity) {
    tree[entity] = new Map(rows.map((r) => [r.id, r]));
    const child: Entity | undefined = CHILD[entity];
    if (child)
      rows = await listWhere(read, child, PARENT_FIELD[child]!.field, [...tree[entity].keys()]);
    entity = child;
  }
  return tree;
}

/**
 * Compares the tablet with the server record by record once the run has settled: every record
 * the run made and kept has exactly one server record with equal fields under its parent's server
 * record; every live server record under the run's sites belongs to exactly one of them.
 */
export async function compareRun(input: {
  tablet: Tablet;
  created: Array<{ entity: Entity; localId: string }>;
  deleted: Set<string>;
  siteCodes: string[];
  read: ReadRecords;
}): Promise<RunCounts> {
  const { tablet, created, deleted } = input;
  const { db, log } = tablet;
  const out: RunCounts = {
    entries: log.entries,
    lost: 0,
    duplicated: 0,
    wrong: 0,
    stuck: 0,
    details: [],
  };
  const note = (kind: 'lost' | 'duplicated' | 'wrong' | 'stuck', text: string) => {
    out[kind] += 1;
    out.details.push(`${kind}: ${text}`);
  };

  const left = await db.outbox.toArray();
  for (const e of left) {
    note(
      'stuck',
      `${e.op} ${e.entity} ${e.localId} is ${e.state} after ${e.attempts} attempts` +
        (e.lastError
          ? ` (last: ${e.lastError.status ?? e.lastError.reason} ${e.lastError.body?.code ?? ''})`
          : ''),
    );
  }
  const waiting = new Set(left.map((e) => e.localId));

  // A server id given to two records of the run: one of them was answered with the other's.
  const mine = new Set(created.map((c) => c.localId));
  const firstOwner = new Map<string, string>();
  for (const ack of log.acks) {
    if (!mine.has(ack.localId)) continue;
    const key = `${ack.entity} ${ack.serverId}`;
    const prev = firstOwner.get(key);
    if (prev === undefined) firstOwner.set(key, ack.localId);
    else if (prev !== ack.localId) {
      note(
        'wrong',
        `${ack.entity} ${ack.localId} was answered with server ${ack.serverId}, already ${prev}'s`,
      );
    }
  }

  const tree = await serverTree(input.read, input.siteCodes);
  const owned = new Set<string>();
  for (const { entity, localId } of created) {
    if (deleted.has(localId)) continue;
    const row = await recordTable(db, entity).get(localId);
    if (!row) {
      note('lost', `${entity} ${localId} vanished from the tablet`);
      continue;
    }
    if (row.serverId === null) {
      if (!waiting.has(localId))
        note('lost', `${entity} ${localId} has no server record and nothing waits to send it`);
      continue;
    }
    const server = tree[entity].get(row.serverId);
    if (!server) {
      note('lost', `${entity} ${localId}: its server record ${row.serverId} is not on the server`);
      continue;
    }
    owned.add(`${entity} ${row.serverId}`);
    if (waiting.has(localId)) continue;
    const differs = Object.keys(row.data).filter(
      (f) =>
        !DERIVED[entity]?.has(f) && !sameValue(row.data[f], serverFieldValue(entity, server, f)),
    );
    if (differs.length > 0) {
      note(
        'lost',
        `${entity} ${localId} (server ${row.serverId}) differs in ${differs
          .map(
            (f) =>
              `${f}: tablet ${JSON.stringify(row.data[f])}, server ${JSON.stringify(serverFieldValue(entity, server, f))}`,
          )
          .join('; ')}`,
      );
    }
    const parent = PARENT_FIELD[entity];
    if (parent) {
      const parentRow = row.parentLocalId
        ? await db.table(ENTITY_TABLE[parent.entity]).get(row.parentLocalId)
        : undefined;
      const serverParent = normalizeValue(server[parent.field]);
      if (!parentRow || parentRow.serverId !== serverParent) {
        note(
          'wrong',
          `${entity} ${localId} (server ${row.serverId}) hangs under ${parent.field} ${String(serverParent)} on the server, ` +
            `under ${String(parentRow?.serverId)} on the tablet`,
        );
      }
    }
  }

  // Server ids the user's deleted records held (from their acknowledgements or their removal).
  const deletedIds = new Set<string>();
  for (const a of log.acks) if (deleted.has(a.localId)) deletedIds.add(`${a.entity} ${a.serverId}`);
  for (const r of log.removed)
    if (deleted.has(r.localId) && r.serverId !== null) deletedIds.add(`${r.entity} ${r.serverId}`);
  for (const entity of Object.keys(tree) as Entity[]) {
    for (const id of tree[entity].keys()) {
      const key = `${entity} ${id}`;
      if (owned.has(key)) continue;
      if (deletedIds.has(key))
        note('lost', `${entity} ${id} was deleted on the tablet but is live on the server`);
      else
        note('duplicated', `${entity} ${id} is on the server but no record on the tablet owns it`);
    }
  }
  return out;
}
