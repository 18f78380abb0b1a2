/**
 * Pools of ticks and other non-mosquito arthropods. The records service lists pools one species
 * type at a time (`type`, mosquito by default: contract §4), so a pull asking only the default
 * never brings a colleague's tick pools, and a check for deleted pools that listed only mosquito
 * pools would take a tick pool for deleted.
 *
 * Real parts: the BFF and the records service on PGlite over HTTP, a tablet's engine on
 * fake-indexeddb, with the lookups the app stores at sign-in.
 */
import { describe, expect, it } from 'vitest';
import type { TraplineDb } from '../../../src/client/db/database';
import { lookupsDocument } from '../../../src/shared';
import { SEX_ID, SPECIES_ID } from '../../../src/server/records/seed/lookup-data';
import { siteBody, trapNight } from './helpers/record-bodies';
import { createRecord } from './helpers/records-service-writes';
import { tabletsOnStack } from './helpers/tablets-on-stack';

const HOUR = 3_600_000;
/** Ixodes pacificus: a tick. */
const TICK = 15;
const { world, tablet: onStack } = tabletsOnStack('types');

/** A tablet holding the lookups (as the app stores them at sign-in). */
async function tablet() {
  const made = onStack({ pull: { pageSize: 1000 } });
  const res = await fetch(`${world.stack.appUrl}/api/lookups`, {
    headers: { ...world.headers, 'X-CSRF': '1' },
  });
  expect(res.status).toBe(200);
  const document = lookupsDocument.parse(await res.json());
  expect(document.species.find((s) => s.id === TICK)?.type).toBe('tick');
  await made.db.lookups.put({ key: 'lookups', etag: null, document, storedAt: Date.now() });
  return made;
}

const create = (path: string, body: unknown) => createRecord(world.office, path, body);

const DAY = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
let codeSeq = 0;

/** One site, a tick drag and a mosquito trap on one day, each with a pool of 10. */
async function tickAndMosquito() {
  const site = await create('/v1/site', siteBody(860000 + (codeSeq += 1), `Types site ${codeSeq}`));
  const made = [];
  for (const species of [TICK, SPECIES_ID.cxTarsalis]) {
    const collection = await create('/v1/arthropod/collection', {
      site: site.id,
      ...trapNight(DAY),
      arthropods: [{ species, sex: SEX_ID.other, num_count: 30 }],
    });
    const pool = await create('/v1/arthropod/pool', {
      collection: collection.id,
      species,
      sex: SEX_ID.other,
      num_count: 10,
    });
    made.push({ collection, pool });
  }
  return { tick: made[0], mosquito: made[1] };
}

const pools = (db: TraplineDb, id: number) => db.pools.where('serverId').equals(id).count();

describe('pools of ticks and other arthropods', () => {
  it('a colleague’s tick pool shows under its collection, beside a look-alike mosquito pool', async () => {
    const { db, engine } = await tablet();
    await engine.pull();
    const { tick, mosquito } = await tickAndMosquito();

    await engine.pull();

    expect(await pools(db, mosquito.pool.id)).toBe(1);
    expect(await pools(db, tick.pool.id)).toBe(1);
    const parent = (await db.collections.where('serverId').equals(tick.collection.id).first())!;
    expect((await db.pools.where('serverId').equals(tick.pool.id).first())?.parentLocalId).toBe(
      parent.localId,
    );
  });

  it('keeps a tick pool at the hourly check for deleted records, and counts one list more', async () => {
    const { db, engine, clock } = await tablet();
    const { tick } = await tickAndMosquito();
    await engine.pull();
    expect(await pools(db, tick.pool.id)).toBe(1);

    clock.offset += HOUR + 1;
    await engine.pull();
    expect(await pools(db, tick.pool.id)).toBe(1);

    world.stack.records.reset();
    await engine.pull();
    const gets = world.stack.records.requests.filter((r) => r.method === 'GET');
    // The four lists, and the tick pools of the window (the tablet holds a tick collection).
    expect(gets).toHaveLength(5);
  });
});
