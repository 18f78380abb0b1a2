import { describe, expect, it } from 'vitest';
import type { TraplineDb } from '../../../src/client/db/database';
import { sitesOfSnapshot, type SiteIndexSnapshot } from '../../../src/client/lib/indexed-sites';
import { SiteIndexCore } from '../../../src/client/lib/site-index-core';
import { readSnapshot, snapshotDbName } from '../../../src/client/lib/site-index-snapshot';
import { PulledSites } from '../../../src/client/sync/pulled-sites';
import { storePulledRows } from '../../../src/client/sync/store-pulled-rows';
import { emptyDatabase } from '../db/factories';
import { pulledSite, tabletDb } from '../features/helpers/records';
import { queueCreate, site } from './helpers/outbox-factory';

/**
 * Sign-in's first pull leaves the site index a snapshot of the sites it stored (PulledSites), so
 * the Sites screen's first opening draws them without reading them back: it must be exactly what
 * the index would have kept from the sites as stored, and never stand for a tablet that holds
 * other sites too. Look-alike sites on purpose: one name, places 1e-5 degree apart, codes one
 * apart, one site listed twice.
 */
const NOW = Date.parse('2026-07-20T12:00:00.000Z');
const twin = (id: number, over: Record<string, unknown> = {}) =>
  pulledSite({
    id,
    code: String(300_000 + id),
    name: 'Twin Slough',
    shape: { type: 'Point', coordinates: [-121.7 + id * 1e-5, 38.55] },
    ...over,
  });

/** Stores `rows` as the pull writer does, in batches, handing what each stored to `pulled`. */
async function pull(db: TraplineDb, pulled: PulledSites, batches: Record<string, unknown>[][]) {
  for (const rows of batches)
    await storePulledRows(db, NOW, 'site', rows, null, { onStored: (r) => pulled.add(r) });
}

/** What the site index keeps after reading `db`'s sites (SiteIndexCore.snapshot), site by site. */
async function indexKept(db: TraplineDb) {
  const core = new SiteIndexCore();
  core.load(await db.sites.toArray());
  return bySite(core.snapshot());
}

const bySite = (s: SiteIndexSnapshot) => sitesOfSnapshot(s).sort((a, b) => (a.id < b.id ? -1 : 1));

describe('the sites a first pull stored, kept for the site index', () => {
  it('are kept exactly as the index would keep the sites as stored', async () => {
    const db = await tabletDb();
    const pulled = new PulledSites(db.name);
    const first = Array.from({ length: 600 }, (_, i) => twin(i + 1));
    // The second batch lists site 42 again as the office changed it, and one site with no place.
    const second = [
      twin(42, { name: 'Twin Slough (moved)', shape: { type: 'Point', coordinates: [-121, 38] } }),
      ...Array.from({ length: 400 }, (_, i) => twin(601 + i)),
      twin(1001, { shape: null }),
    ];
    await pull(db, pulled, [first, second]);

    expect(await pulled.keep(db)).toBe(true);
    const kept = await readSnapshot(db.name);
    expect(kept?.ids).toHaveLength(1001);
    expect(bySite(kept!)).toEqual(await indexKept(db));
    const moved = bySite(kept!).find((s) => s.code === '300042');
    expect(moved).toMatchObject({ name: 'Twin Slough (moved)', lat: 38, lon: -121 });
    expect(Number.isNaN(bySite(kept!).find((s) => s.code === '301001')!.lat)).toBe(true);
  });

  it('are not kept when the tablet holds a site the pull did not store', async () => {
    const db = await tabletDb();
    await queueCreate(db, 'site', site(7));
    const pulled = new PulledSites(db.name);
    await pull(db, pulled, [Array.from({ length: 50 }, (_, i) => twin(i + 1))]);

    expect(await pulled.keep(db)).toBe(false);
    expect(await readSnapshot(db.name)).toBeNull();
  });

  it('do not replace a snapshot the index kept, and are forgotten once offered', async () => {
    const db = await tabletDb();
    const pulled = new PulledSites(db.name);
    await pull(db, pulled, [Array.from({ length: 30 }, (_, i) => twin(i + 1))]);
    expect(await pulled.keep(db)).toBe(true);

    // A later pull stores every site again, renamed: the index's own snapshot stands.
    await pull(db, pulled, [Array.from({ length: 30 }, (_, i) => twin(i + 1, { name: 'Later' }))]);
    expect(await pulled.keep(db)).toBe(false);
    expect(new Set((await readSnapshot(db.name))!.names)).toEqual(new Set(['Twin Slough']));
    expect(await pulled.keep(db)).toBe(false);
  });

  it('are not kept over an empty database of the snapshot’s name, and say so', async () => {
    const db = await tabletDb();
    await emptyDatabase(snapshotDbName(db.name));
    const pulled = new PulledSites(db.name);
    await pull(db, pulled, [Array.from({ length: 10 }, (_, i) => twin(i + 1))]);

    expect(await pulled.keep(db)).toBe(false);
    expect(await readSnapshot(db.name)).toBeNull();
  });

  it('leave out a batch that was not stored', async () => {
    const db = await tabletDb();
    const pulled = new PulledSites(db.name);
    await pull(db, pulled, [Array.from({ length: 20 }, (_, i) => twin(i + 1))]);
    // A value IndexedDB cannot store: the batch aborts, and none of it was stored.
    const refused = [twin(21), { ...twin(22), comments: () => 'not storable' }];
    await expect(pull(db, pulled, [refused])).rejects.toThrow();

    expect(await pulled.keep(db)).toBe(true);
    expect((await readSnapshot(db.name))!.codes.sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => String(300_001 + i)),
    );
  });
});
