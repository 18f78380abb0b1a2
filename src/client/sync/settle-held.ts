import type { Entity } from '#shared';
import { eachPage } from './list-pages';
import { storePulled } from './pull-writer';
import { recordTable } from '../db/record-tables';
import type { SyncContext } from './sync-context';

/** Server ids of the rows a pull held back (see `settleHeld`), by entity (and pool type). */
const HELD_META_KEY = (entity: Entity, type: string | null) =>
  `sync.pull.held.${entity}${type === null ? '' : `.${type}`}`;

/** Ids per request for held rows asked for again: keeps the query string short. */
const HELD_IDS_PER_REQUEST = 100;

/**
 * Rows a pull held back (the technician's change of the record was waiting: their edit wins
 * locally) while the pull's mark moved past them. When that change leaves without a write on the
 * server (discarded, or a conflict settled with the server's values), no later pull would list
 * the record again, and the tablet would show the version it had before, for good. So their ids
 * are kept in `meta` until a pull stores the record: once a held row has nothing waiting, and
 * this pull did not bring it (`seen`; the pull after a sent edit lists the record anyway), it is
 * asked for again by id, in one request per hundred (none while nothing is held). A row no longer
 * on the tablet, or no longer listed, is forgotten (deletions are the reconciliations' work).
 */
export async function settleHeld(
  ctx: SyncContext,
  entity: Entity,
  seen: ReadonlySet<number>,
  heldNow: readonly number[],
  pageSize: number,
  /** The pools' species type, for pools listed apart (see `pullOtherPools`). */
  type: string | null = null,
): Promise<void> {
  const { db } = ctx;
  const key = HELD_META_KEY(entity, type);
  const before = ((await db.meta.get(key))?.value as number[] | undefined) ?? [];
  const stillHeld = new Set(heldNow);
  const held = new Set([...before.filter((id) => !seen.has(id)), ...heldNow]);
  if (held.size > 0 || before.length > 0) await db.meta.put({ key, value: [...held] });
  if (held.size === stillHeld.size) return;
  const table = recordTable(db, entity);
  const rows = await table
    .where('serverId')
    .anyOf([...held])
    .toArray();
  const busy = new Set(
    (
      await db.outbox
        .where('localId')
        .anyOf(rows.map((r) => r.localId))
        .toArray()
    ).map((e) => e.localId),
  );
  const free = rows
    .filter((r) => !stillHeld.has(r.serverId!) && r.syncState === 'synced' && !busy.has(r.localId))
    .map((r) => r.serverId!);
  const freed = new Set(free);
  const kept = new Set(rows.filter((r) => !freed.has(r.serverId!)).map((r) => r.serverId!));
  for (let i = 0; i < free.length; i += HELD_IDS_PER_REQUEST) {
    const filter = {
      query: { id: { $in: free.slice(i, i + HELD_IDS_PER_REQUEST) } },
      ...(type === null ? {} : { type }),
    };
    await eachPage(ctx, entity, filter, pageSize, async (listed) => {
      // Held again when the technician saved meanwhile.
      const written = await storePulled(db, ctx.now(), entity, listed);
      for (const id of written.held ?? []) kept.add(id);
    });
  }
  await db.meta.put({ key, value: [...kept] });
}
