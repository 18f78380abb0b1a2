import { describe, expect, it } from 'vitest';
import { sameValue, serverToData } from '../../../src/client/db/field-values';
import { collection, site } from '../sync/helpers/outbox-factory';
import { setupEngine } from '../sync/helpers/setup-engine';

const NOW = Date.parse('2026-07-20T12:00:00.000Z');

describe('lures as the service returns them', () => {
  it('reads lure records without table_name as their lure type, not their record id', () => {
    expect(sameValue([{ id: 90, lure: 3 }], [3])).toBe(true);
    expect(sameValue([{ id: 90, lure: { id: 3, code: 'CO2' } }], [3])).toBe(true);
    expect(sameValue([{ id: 90, lure: 3 }], [90])).toBe(false);
    expect(sameValue([3, 4], [3, 4])).toBe(true);
  });

  it('keeps the lure types of a pulled collection in its data, whichever shape was sent', () => {
    const base = { ...collection('2026-07-10T00:00:00.000Z'), id: 7, updated: 'x' };
    expect(serverToData('collection', { ...base, lures: [{ id: 90, lure: 3 }] }).lures).toEqual([
      3,
    ]);
    expect(
      serverToData('collection', { ...base, lures: [{ id: 91, lure: { id: 4, code: 'DRY' } }] })
        .lures,
    ).toEqual([4]);
    expect(serverToData('collection', { ...base, lures: [3, 4] }).lures).toEqual([3, 4]);
    expect(
      serverToData('collection', {
        ...base,
        lures: [
          { id: 92, lure: 5, table_name: 'collection', deactive_date: '2026-07-11T00:00:00.000Z' },
          { id: 93, lure: 6, table_name: 'collection', deactive_date: null },
        ],
      }).lures,
    ).toEqual([6]);
  });

  it('shows the lure types of a collection pulled from a service that omits table_name', async () => {
    const { db, bff, engine } = setupEngine({ now: () => NOW });
    const s = bff.seed('site', site(1));
    bff.seed('collection', {
      ...collection('2026-07-10T00:00:00.000Z'),
      site: s.id,
      lures: [
        { id: 90, lure: 3 },
        { id: 91, lure: { id: 4, code: 'DRY' } },
      ],
    });
    await engine.pull();
    const [row] = await db.collections.toArray();
    expect(row.data.lures).toEqual([3, 4]);
  });
});
