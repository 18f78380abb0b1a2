/**
 * Pools of ticks and other non-mosquito arthropods. The records service lists pools one species
 * type at a time (`type`, mosquito by default: contract §4), so a pull asking only the default
 * never brings a colleague's tick pools, and a check for deleted pools that listed only mosquito
 * pools would take a tick pool for deleted.
 *
 * Real parts: the BFF and the records service on PGlite over HTTP, a tablet's engine on
 * fake-indexeddb, with the lookups the app stores at sign-in.
 */
import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TraplineDb } from '../../../src/client/db/database';
import { lookupsDocument } from '../../../src/shared';
import { createSyncEngine, type SyncEngine } from '../../../src/client/sync';
import {
  PRECISION_ID,
  SEX_ID,
  SPECIES_ID,
  TRAP_ID,
} from '../../../src/server/records/seed/lookup-data';
import { recordsApi, type RecordsApi } from '../../e2e/harness/records-api';
import { startStack, type Stack } from '../../e2e/harness/stack';
import { browserSession } from './helpers/browser-session';

const HOUR = 3_600_000;
/** Ixodes pacificus: a tick. */
const TICK = 15;
let stack: Stack;
let office: RecordsApi;
let headers: Record<string, string>;
const tablets: Array<{ engine: SyncEngine; db: TraplineDb }> = [];

beforeAll(async () => {
  stack = await startStack();
  office = await recordsApi(stack.recordsUrl, stack.password, 'demo-manager');
  headers = (await browserSession(stack.appUrl, 'demo-tech', stack.password)).headers;
}, 60_000);

afterEach(async () => {
  for (const { engine, db } of tablets.splice(0)) {
    engine.stop();
    db.close();
    await db.delete();
  }
});

afterAll(async () => {
  await stack?.stop();
});

/** A tablet holding the lookups (as the app stores them at sign-in). */
async function tablet() {
  const db = new TraplineDb(`trapline-types-${crypto.randomUUID()}`);
  const res = await fetch(`${stack.appUrl}/api/lookups`, {
    headers: { ...headers, 'X-CSRF': '1' },
  });
  expect(res.status).toBe(200);
  const document = lookupsDocument.parse(await res.json());
  expect(document.species.find((s) => s.id === TICK)?.type).toBe('tick');
  await db.lookups.put({ key: 'lookups', etag: null, document, storedAt: Date.now() });
  const clock = { offset: 0 };
  const engine = createSyncEngine(db, {
    baseUrl: stack.appUrl,
    headers,
    autoPull: false,
    channelName: null,
    now: () => Date.now() + clock.offset,
    pull: { pageSize: 1000 },
  });
  tablets.push({ engine, db });
  return { db, engine, clock };
}

async function create(path: string, body: unknown): Promise<{ id: number }> {
  const res = await office.post<{ id: number }>(path, body);
  expect(res.status, `POST ${path}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body;
}

const DAY = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
let codeSeq = 0;

/** One site, a tick drag and a mosquito trap on one day, each with a pool of 10. */
async function tickAndMosquito() {
  const site = await create('/v1/site', {
    code: String(860000 + (codeSeq += 1)),
    name: `Types site ${codeSeq}`,
    coordinate_precision: PRECISION_ID.gps,
    shape: { type: 'Point', coordinates: [-121.49, 38.58] },
  });
  const made = [];
  for (const species of [TICK, SPECIES_ID.cxTarsalis]) {
    const collection = await create('/v1/arthropod/collection', {
      site: site.id,
      collection_date: DAY,
      num_trap: 1,
      trap: TRAP_ID.co2,
      trap_nights: 1,
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

    stack.records.reset();
    await engine.pull();
    const gets = stack.records.requests.filter((r) => r.method === 'GET');
    // The four lists, and the tick pools of the window (the tablet holds a tick collection).
    expect(gets).toHaveLength(5);
  });
});
