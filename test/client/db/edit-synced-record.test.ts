import { afterEach, describe, expect, it } from 'vitest';
import type { TraplineDb } from '../../../src/client/db/database';
import { updateCollection } from '../../../src/client/db/update-collection';
import type { CollectionData } from '../../../src/client/db/create-collection';
import { mergeFormData } from '../../../src/client/ui/form/merge-form-data';
import { serverToData } from '../../../src/client/db/field-values';
import { COLLECTION_FORM_KEYS as FORM_KEYS } from '../../../src/client/features/collections/collection-schema';
import { makeDb } from './factories';

let db: TraplineDb;
afterEach(async () => {
  await db?.delete();
});

const SITE_LOCATION = {
  id: 40,
  table_name: 'collection',
  record_id: 9,
  agency: 1,
  shape: { type: 'Point', coordinates: [-121.49, 38.58] },
  coordinate_precision: 1,
};

/** A collection at a normal site as the service returns it (a pull stores it like this). */
function serverCollection(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 9,
    collection_date: '2026-07-14T13:30:00.000Z',
    collection_date_date_only: false,
    collection_num: 12,
    surv_year: 2026,
    num_trap: 1,
    trap: 2,
    trap_nights: 1,
    comments: 'dry',
    site: 7,
    location: SITE_LOCATION,
    agency: 1,
    lures: [{ id: 90, lure: 3 }],
    arthropods: [{ id: 5, species: 1, sex: 1, num_count: 120, deactive_date: null }],
    add_date: '2026-07-14T14:00:00.000Z',
    updated: '2026-07-14T14:00:00.000Z',
    ...overrides,
  };
}

async function storePulled(server: Record<string, unknown>): Promise<string> {
  const localId = crypto.randomUUID();
  await db.collections.add({
    localId,
    serverId: server.id as number,
    syncState: 'synced',
    data: serverToData('collection', server),
    server: server as never,
    baseUpdated: server.updated as string,
    parentLocalId: null,
    updatedAt: 1,
    problem: null,
    collectionDate: String(server.collection_date),
  });
  return localId;
}

/** What the collection form hands back for a normal site: local time with offset, no location. */
function fromForm(overrides: Partial<CollectionData> = {}): CollectionData {
  return {
    collection_date: '2026-07-14T06:30:00-07:00',
    collection_date_date_only: false,
    num_trap: 1,
    trap: 2,
    trap_nights: 1,
    comments: 'dry',
    lures: [3],
    arthropods: [{ species: 1, sex: 1, num_count: 120 }],
    ...overrides,
  } as CollectionData;
}

async function saveEdit(localId: string, form: CollectionData): Promise<boolean> {
  const row = (await db.collections.get(localId))!;
  return updateCollection(db, localId, mergeFormData(row.data, form, FORM_KEYS));
}

describe('editing a collection that came from the server', () => {
  it('sends only the field the user changed, not the same time written with an offset', async () => {
    db = makeDb();
    const localId = await storePulled(serverCollection());

    await saveEdit(localId, fromForm({ comments: 'standing water' }));

    const [update] = await db.outbox.toArray();
    expect(update.payload).toEqual({ comments: 'standing water' });
    expect(Object.keys(update.baseValues ?? {})).toEqual(['comments']);
  });

  it('never sends location null for a collection at a normal site, whose form has no location', async () => {
    db = makeDb();
    const localId = await storePulled(serverCollection());

    await saveEdit(localId, fromForm({ num_trap: 2 }));

    const [update] = await db.outbox.toArray();
    expect(update.payload).toEqual({ num_trap: 2 });
    expect((await db.collections.get(localId))!.data.location).toEqual({
      shape: SITE_LOCATION.shape,
      coordinate_precision: 1,
    });
  });

  it('queues nothing when the form saves a date-only collection unchanged', async () => {
    db = makeDb();
    const localId = await storePulled(
      serverCollection({
        collection_date: '2026-07-14T00:00:00.000Z',
        collection_date_date_only: true,
      }),
    );

    const saved = await saveEdit(
      localId,
      fromForm({ collection_date: '2026-07-14', collection_date_date_only: true }),
    );

    expect(saved).toBe(false);
    expect(await db.outbox.count()).toBe(0);
  });

  it('still sends a real change of the collection time', async () => {
    db = makeDb();
    const localId = await storePulled(serverCollection());

    await saveEdit(localId, fromForm({ collection_date: '2026-07-14T07:30:00-07:00' }));

    const [update] = await db.outbox.toArray();
    expect(update.payload).toEqual({ collection_date: '2026-07-14T07:30:00-07:00' });
  });

  it('still clears a field the user emptied', async () => {
    db = makeDb();
    const localId = await storePulled(serverCollection());

    await saveEdit(localId, fromForm({ comments: undefined }));

    const [update] = await db.outbox.toArray();
    expect(update.payload).toEqual({ comments: null });
  });
});
