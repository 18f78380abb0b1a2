import type { LookupsDocument } from '#shared';
import type { CollectionRow, PoolRow, SiteRow, TraplineDb } from '../../db/database';
import { byCreation } from '../../db/creation-order';
import { readPoolsOf } from '../../db/record-reads';
import { collectionNumberOf, poolNumberOf } from '../../db/record-numbers';
import { dayOf } from '../../lib/dates';

/** Which pools a label sheet or a manifest is for: one collection's, or one day's. */
export type PoolSelection = { collection: string } | { date: string };

/** A pool as its label and its manifest line show it. */
export type LabelPool = {
  localId: string;
  /** The records service's id (the label's QR names it), null until synced. */
  serverId: number | null;
  /** `pool_num`, what the lab reads; null until synced (the label says so). */
  number: number | null;
  /** Its place in its collection's list ("New pool 2" before it has a number). */
  place: number;
  species: string;
  sex: string;
  count: number;
  collection: {
    localId: string;
    number: number | null;
    /** The day it was collected, `YYYY-MM-DD`, as the technician wrote it. */
    day: string;
    identifiedBy: string | null;
  };
  site: { code: string; name: string } | null;
};

const nameOf = (
  list: readonly { id: number; display_name?: string | null; full_name?: string; name?: string }[],
  id: unknown,
  fallback: string,
): string => {
  const item = list.find((x) => x.id === Number(id));
  return item ? (item.display_name ?? item.full_name ?? item.name ?? fallback) : fallback;
};

/** The day before and after `day` (`YYYY-MM-DD`): stored dates carry offsets and times. */
function neighbours(day: string): [string, string] {
  const d = new Date(`${day}T12:00:00Z`);
  const shift = (n: number) => new Date(d.getTime() + n * 86_400_000).toISOString().slice(0, 10);
  return [shift(-1), shift(2)];
}

async function collectionsOf(db: TraplineDb, selection: PoolSelection): Promise<CollectionRow[]> {
  if ('collection' in selection) {
    const one = await db.collections.get(selection.collection);
    return one && !one.deleted ? [one] : [];
  }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(selection.date)) return [];
  const [from, to] = neighbours(selection.date);
  const near = await db.collections
    .where('collectionDate')
    .between(from, to, true, false)
    .toArray();
  return near
    .filter((c) => !c.deleted)
    .filter(
      (c) => dayOf(c.collectionDate, c.data.collection_date_date_only === true) === selection.date,
    )
    .sort(byCreation);
}

/**
 * The pools of the selection, not deleted, collection by collection and in each in the order
 * they were made (the order of the collection's screen, so "New pool 2" is the same pool here).
 */
export async function readLabelPools(
  db: TraplineDb,
  selection: PoolSelection,
  lookups: Pick<LookupsDocument, 'species' | 'sex'>,
): Promise<LabelPool[]> {
  const collections = await collectionsOf(db, selection);
  const siteIds = [...new Set(collections.flatMap((c) => c.parentLocalId ?? []))];
  const sites = new Map(
    (await db.sites.bulkGet(siteIds)).flatMap((s): [string, SiteRow][] =>
      s ? [[s.localId, s]] : [],
    ),
  );
  const out: LabelPool[] = [];
  for (const c of collections) {
    const pools: PoolRow[] = (await readPoolsOf(db, c.localId)).sort(byCreation);
    const site = c.parentLocalId ? sites.get(c.parentLocalId) : undefined;
    const identified = c.data.identified_by;
    pools.forEach((p, i) => {
      out.push({
        localId: p.localId,
        serverId: p.serverId,
        number: poolNumberOf(p),
        place: i + 1,
        species: nameOf(lookups.species, p.data.species, `#${String(p.data.species)}`),
        sex: nameOf(lookups.sex, p.data.sex, `#${String(p.data.sex)}`),
        count: Number(p.data.num_count),
        collection: {
          localId: c.localId,
          number: collectionNumberOf(c),
          day: dayOf(c.collectionDate, c.data.collection_date_date_only === true),
          identifiedBy: typeof identified === 'string' && identified !== '' ? identified : null,
        },
        site: site ? { code: site.code, name: site.name } : null,
      });
    });
  }
  return out;
}

/** A pool the office has numbered (and so has an id): the only kind a label is printed for. */
export type NumberedPool = LabelPool & { number: number; serverId: number };

export function isNumbered(pool: LabelPool): pool is NumberedPool {
  return pool.number !== null && pool.serverId !== null;
}

/** The selection from a screen's query string (`?collection=<localId>` or `?date=YYYY-MM-DD`). */
export function selectionFrom(params: URLSearchParams, today: string): PoolSelection {
  const collection = params.get('collection');
  if (collection) return { collection };
  const date = params.get('date');
  return { date: date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : today };
}
