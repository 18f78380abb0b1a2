import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { SiteIndexCore, type SiteRecordLike } from '../../../src/client/lib/site-index-core';
import {
  deleteSnapshot,
  readSnapshot,
  snapshotDbName,
  writeSnapshot,
} from '../../../src/client/lib/site-index-snapshot';
import { emptyDatabase } from '../db/factories';

/**
 * What the site index shows at a first opening before it has read the sites as stored: what it
 * showed at the last visit (a snapshot). Look-alike sites on purpose: one name, places a few
 * metres apart, so a snapshot that mixed them up would show.
 */
const twin = (g: number): SiteRecordLike => ({
  localId: `site-${String(g).padStart(3, '0')}`,
  code: String(200_000 + g),
  name: 'Twin Slough',
  syncState: 'synced',
  createdAt: Date.parse('2026-05-01T00:00:00Z'),
  data: { shape: { type: 'Point', coordinates: [-121.7 + g * 1e-4, 38.55] } },
  server: { id: g, add_date: '2026-05-01T00:00:00Z' },
});
const rows = [...Array.from({ length: 300 }, (_, i) => twin(i + 1)), { ...twin(301), data: {} }];
const DISTRICT: [number, number, number, number] = [-122.2, 38.1, -120.8, 39.2];

function fromSnapshotOf(source: SiteIndexCore): SiteIndexCore {
  const shown = new SiteIndexCore();
  expect(shown.loadSnapshot(structuredClone(source.snapshot()))).toBe(true);
  return shown;
}

describe('the site index shown from the last visit', () => {
  it('shows, lists, searches and finds nearest exactly as the index it was kept from', () => {
    const read = new SiteIndexCore();
    read.load(rows);
    const shown = fromSnapshotOf(read);
    expect(shown.summary()).toEqual(read.summary());
    for (const zoom of [9, 12, 15, 18])
      expect(shown.view(DISTRICT, zoom)).toEqual(read.view(DISTRICT, zoom));
    expect(shown.search('twin', 50)).toEqual(read.search('twin', 50));
    expect(shown.search('200301', 5)).toEqual(read.search('200301', 5));
    const here = { lat: 38.55, lon: -121.69 };
    expect(shown.nearest(here, 3)).toEqual(read.nearest(here, 3));
  });

  it('holds no checks for the site form until the sites as stored are read', () => {
    const read = new SiteIndexCore();
    read.load(rows);
    const shown = fromSnapshotOf(read);
    expect(shown.confirmed).toBe(false);
    expect(shown.checks()).toEqual([]);
    // Nothing changed since: the same version, nothing named, and now the checks.
    expect(shown.load(rows)).toEqual([]);
    expect(shown.version).toBe(1);
    expect(shown.confirmed).toBe(true);
    expect(shown.checks()).toEqual(read.checks());
    expect(shown.checksSince(null)).toEqual({ version: 1, all: read.checks() });
  });

  it('names exactly what changed since the last visit once the sites are read', () => {
    const read = new SiteIndexCore();
    read.load(rows);
    const shown = fromSnapshotOf(read);
    const now = rows
      .map((r) => (r.localId === 'site-007' ? { ...r, name: 'Twin Slough east' } : r))
      .map((r) => (r.localId === 'site-008' ? { ...r, deleted: true } : r))
      .map((r) =>
        // Moved a ten-millionth of a degree.
        r.localId === 'site-009'
          ? { ...r, data: { shape: { type: 'Point', coordinates: [-121.7 + 9e-4, 38.5500001] } } }
          : r,
      )
      // A date the form checks, not the map: no marker changed, but the checks are the new ones.
      .map((r) =>
        r.localId === 'site-010' ? { ...r, data: { ...r.data, deactive_date: '2026-09-30' } } : r,
      );
    now.push(twin(302));
    expect(shown.load(now).sort()).toEqual(['site-007', 'site-008', 'site-009', 'site-302']);
    expect(shown.version).toBe(2);
    const fresh = new SiteIndexCore();
    fresh.load(now);
    expect(shown.view(DISTRICT, 18)).toEqual(fresh.view(DISTRICT, 18));
    expect(shown.summary().count).toBe(301);
    expect(shown.checks()).toEqual(fresh.checks());
    expect(shown.checks().find((c) => c.localId === 'site-010')?.data.deactive_date).toBe(
      '2026-09-30',
    );
  });

  it('is not taken once the sites were read, nor in another format', () => {
    const read = new SiteIndexCore();
    read.load(rows);
    const kept = read.snapshot();
    const again = new SiteIndexCore();
    again.load(rows.slice(0, 10));
    expect(again.loadSnapshot(kept)).toBe(false);
    expect(again.summary().count).toBe(10);
    const other = new SiteIndexCore();
    expect(other.loadSnapshot({ ...kept, format: 0 as never })).toBe(false);
    expect(other.version).toBe(0);
  });
});

describe('the kept snapshot', () => {
  const made = async (name: string) => {
    const db = new Dexie(name);
    db.version(1).stores({ sites: 'localId' });
    await db.open();
    db.close();
  };
  const names = async () => (await indexedDB.databases()).map((d) => d.name);

  it('is kept for the user, read back whole, and removed with their data', async () => {
    await made('trapline-a1-snap-tech');
    const read = new SiteIndexCore();
    read.load(rows);
    expect(await readSnapshot('trapline-a1-snap-tech')).toBeNull();
    await writeSnapshot('trapline-a1-snap-tech', read.snapshot());
    const back = await readSnapshot('trapline-a1-snap-tech');
    expect(back?.ids).toHaveLength(301);
    const shown = new SiteIndexCore();
    expect(shown.loadSnapshot(back!)).toBe(true);
    expect(shown.view(DISTRICT, 18)).toEqual(read.view(DISTRICT, 18));
    await deleteSnapshot('trapline-a1-snap-tech');
    expect(await names()).not.toContain(snapshotDbName('trapline-a1-snap-tech'));
    await Dexie.delete('trapline-a1-snap-tech');
  });

  it('is neither made by looking for it nor kept for a user whose data is gone', async () => {
    expect(await readSnapshot('trapline-a1-gone-tech')).toBeNull();
    const read = new SiteIndexCore();
    read.load(rows);
    await writeSnapshot('trapline-a1-gone-tech', read.snapshot());
    expect((await names()).filter((n) => n?.includes('gone-tech'))).toEqual([]);
  });

  it('reads as none from an empty database of its name, and is kept there after', async () => {
    await made('trapline-a1-empty-tech');
    // Made by something that only looked (a raw open), with no store in it.
    await emptyDatabase(snapshotDbName('trapline-a1-empty-tech'));
    expect(await readSnapshot('trapline-a1-empty-tech')).toBeNull();
    const read = new SiteIndexCore();
    read.load(rows);
    await writeSnapshot('trapline-a1-empty-tech', read.snapshot());
    expect((await readSnapshot('trapline-a1-empty-tech'))?.ids).toHaveLength(301);
    await deleteSnapshot('trapline-a1-empty-tech');
    await Dexie.delete('trapline-a1-empty-tech');
  });
});
