import { refId, type Entity } from '#shared';
import { PARENT_FIELD, type TraplineDb } from '../db/database';
import { serverToData } from '../db/field-values';
import { recordTable, type AnyRecordRow } from '../db/record-tables';

/** A row of a list as the server sent it. */
export type PulledRow = Record<string, unknown>;

/**
 * What storing a batch did: rows written, the server ids of those new to this tablet, and of
 * those held back (left as the technician saved them, see `storePulledRows`).
 */
export type StoredRows = { stored: number; added: number[]; held: number[] };

/**
 * Rows per `bulkPut` inside a store's transaction: each call's structured cloning runs as one
 * task, so a chunk bounds how long its thread is blocked; 50 rows or more per call also let Dexie
 * mark the table changed as a whole instead of tracking every key for live queries (which cost
 * more than the writes themselves at 20,000 sites).
 */
const WRITE_CHUNK = 500;

/**
 * How a batch's chunks are written. `inTurn`: each chunk once the one before is written, so the
 * calling thread is free between chunks (the page's thread, where there is no worker).
 * `overlapped`: every chunk asked for at once (the pull writer worker, where no screen waits):
 * the worker serialises chunk after chunk while IndexedDB's backend, in the browser's own
 * process, writes those before, instead of each waiting for the other. Same transaction, same
 * rows, same order either way.
 */
export type WriteOrder = 'inTurn' | 'overlapped';

/**
 * Upserts a batch of rows by serverId, in one transaction: one indexed read per table for the
 * whole batch (the rows already here, their outbox entries, the parents), then chunked
 * `bulkPut`s. Invariant: a record with a local change not yet on the server (syncState other
 * than 'synced', or any entry in the outbox) is never overwritten: the user's edit wins locally
 * until the outbox resolves it. Returns how many rows were written, the server ids of those
 * new to this tablet, and of those held back by a local change (the pull asks for them again once
 * the change is gone: see `settleHeld` in pull-records.ts).
 */
export async function storePulledRows(
  db: TraplineDb,
  /** The time written as the records' `updatedAt` (ms). */
  now: number,
  entity: Entity,
  rows: PulledRow[],
  /**
   * A row new to this tablet is stored only if its `collection_date` is on or after this day
   * (`YYYY-MM-DD`): an incremental pull lists what changed at any date, and keeps of it the
   * pulled window and the records the tablet already holds. Null: every row.
   */
  notBefore: string | null = null,
  {
    writeOrder = 'inTurn',
    onStored,
  }: {
    writeOrder?: WriteOrder;
    /** Given the records written, once their transaction has committed. */
    onStored?: (records: readonly AnyRecordRow[]) => void;
  } = {},
): Promise<StoredRows> {
  const table = recordTable(db, entity);
  const parent = PARENT_FIELD[entity];
  const parentTable = parent ? recordTable(db, parent.entity) : null;
  const tables = parentTable ? [table, parentTable, db.outbox] : [table, db.outbox];
  // One row per server id (the last one sent): serverId is a unique index.
  const incoming = new Map<number, PulledRow>();
  for (const row of rows) if (typeof row.id === 'number') incoming.set(row.id, row);
  const parentIdOf = (row: PulledRow) =>
    parent ? refId(row[parent.field] as number | { id: number } | null | undefined) : null;
  // The records the transaction wrote, handed to onStored once it has committed.
  let committed: AnyRecordRow[] = [];
  const result = await db.transaction('rw', tables, async () => {
    const existing = new Map<number, AnyRecordRow>();
    for (const r of await table
      .where('serverId')
      .anyOf([...incoming.keys()])
      .toArray())
      if (r.serverId !== null) existing.set(r.serverId, r);
    const withEntry = new Set(
      existing.size === 0
        ? []
        : (
            await db.outbox
              .where('localId')
              .anyOf([...existing.values()].map((r) => r.localId))
              .toArray()
          ).map((e) => e.localId),
    );
    const parentLocal = new Map<number, string>();
    if (parentTable) {
      const ids = new Set<number>();
      for (const row of incoming.values()) {
        const id = parentIdOf(row);
        if (id !== null) ids.add(id);
      }
      for (const p of await parentTable
        .where('serverId')
        .anyOf([...ids])
        .toArray())
        if (p.serverId !== null) parentLocal.set(p.serverId, p.localId);
    }
    // A row without its date (an upstream that leaves it out of pool rows) is in the window
    // when its parent is on the tablet.
    const inWindow = (row: PulledRow, from: string) => {
      if (typeof row.collection_date === 'string') return row.collection_date >= from;
      const parentId = parentIdOf(row);
      return parentId !== null && parentLocal.has(parentId);
    };
    const next: AnyRecordRow[] = [];
    const added: number[] = [];
    const held: number[] = [];
    for (const [id, row] of incoming) {
      const prior = existing.get(id);
      if (prior && (prior.syncState !== 'synced' || withEntry.has(prior.localId))) {
        held.push(id);
        continue;
      }
      if (!prior && notBefore !== null && !inWindow(row, notBefore)) continue;
      let parentLocalId = prior?.parentLocalId ?? null;
      if (parent) {
        const parentId = parentIdOf(row);
        parentLocalId = parentId === null ? null : (parentLocal.get(parentId) ?? null);
      }
      const record: AnyRecordRow & Record<string, unknown> = {
        localId: prior?.localId ?? crypto.randomUUID(),
        serverId: id,
        syncState: 'synced',
        data: serverToData(entity, row),
        server: row,
        baseUpdated: typeof row.updated === 'string' ? row.updated : null,
        parentLocalId,
        updatedAt: now,
        // When a record made here was made: equal pools are told apart by it (creation-order.ts).
        ...(prior && 'createdAt' in prior ? { createdAt: prior.createdAt } : {}),
        problem: null,
        ...(entity === 'site'
          ? { code: String(row.code ?? ''), name: String(row.name ?? '') }
          : {}),
        ...(entity === 'collection' ? { collectionDate: String(row.collection_date ?? '') } : {}),
      };
      next.push(record);
      if (!prior) added.push(id);
    }
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < next.length; i += WRITE_CHUNK) {
      const written = table.bulkPut(next.slice(i, i + WRITE_CHUNK));
      if (writeOrder === 'inTurn') await written;
      else writes.push(written);
    }
    await Promise.all(writes);
    committed = next;
    return { stored: next.length, added, held };
  });
  onStored?.(committed);
  return result;
}
