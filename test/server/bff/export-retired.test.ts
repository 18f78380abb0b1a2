import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  METHOD_ID,
  SEX_ID,
  SPECIES_ID,
  STATUS_ID,
  TARGET_ID,
  TRAP_ID,
} from '../../../src/server/records/seed/lookup-data';
import { startBffStack, type BffStack } from './helpers/bff-stack';

/**
 * What a manager retired (DELETE) leaves every export, as it leaves the reports: a file never
 * holds a positive test of a pool that pools.csv no longer lists.
 */
let stack: BffStack;
let manager: string;
const LAB = 3;

async function post(path: string, body: Record<string, unknown>) {
  const res = await stack.api(`/api/v1${path}`, { method: 'POST', cookie: manager, body });
  expect(res.status, res.text).toBe(201);
  return res.json<{ id: number }>().id;
}

async function retire(path: string) {
  const res = await stack.api(`/api/v1${path}`, { method: 'DELETE', cookie: manager });
  expect(res.status, res.text).toBe(200);
}

/** The first column of every data line of a CSV export (the record ids). */
async function exportedIds(file: string): Promise<number[]> {
  const res = await stack.api(`/api/export/${file}`, {
    cookie: manager,
    headers: { accept: '*/*' },
  });
  expect(res.status, res.text).toBe(200);
  return res.text
    .split('\r\n')
    .slice(1, -1)
    .map((line) => Number(line.split(',')[0]));
}

/** A collection with one pool of 20 Cx tarsalis females, tested WNV positive. */
async function positivePool(date: string) {
  const collection = await post('/arthropod/collection', {
    collection_date: date,
    num_trap: 1,
    trap: TRAP_ID.co2,
    trap_nights: 1,
    location: {
      shape: { type: 'Point', coordinates: [-121.49, 38.58] },
      coordinate_precision: 1,
    },
    arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 20 }],
  });
  const pool = await post('/arthropod/pool', {
    collection,
    species: SPECIES_ID.cxTarsalis,
    sex: SEX_ID.fMixed,
    num_count: 20,
  });
  const test = await post('/arthropod/pool/test', {
    pool,
    method: METHOD_ID.rtPcr,
    target: TARGET_ID.wnv,
    status: STATUS_ID.confirmed,
    test_date: date,
    test_agency: LAB,
  });
  return { collection, pool, test };
}

beforeAll(async () => {
  stack = await startBffStack();
  manager = await stack.signIn('demo-manager');
});
afterAll(async () => {
  await stack?.close();
});

describe('retired records in the exports', () => {
  it('leaves out the tests of a retired pool, and of the pools of a retired collection', async () => {
    const kept = await positivePool('2025-07-08');
    const retiredPool = await positivePool('2025-07-09');
    const retiredCollection = await positivePool('2025-07-10');
    await retire(`/arthropod/pool/${retiredPool.pool}`);
    await retire(`/arthropod/collection/${retiredCollection.collection}`);

    expect(await exportedIds('collections.csv')).toEqual([kept.collection, retiredPool.collection]);
    expect(await exportedIds('pools.csv')).toEqual([kept.pool]);
    // The infection rate counts only the kept pool's test; so does the file.
    expect(await exportedIds('pool-tests.csv')).toEqual([kept.test]);
    const rate = await stack.api('/api/reports/infection-rate?year=2025&pt_estimate=mir&scale=1', {
      cookie: manager,
    });
    expect(rate.json<{ rows: Array<{ InfectionRate: number }> }>().rows).toEqual([
      { Year: 2025, Week: 28, InfectionRate: 0.05, LowerCI: 0, UpperCI: expect.any(Number) },
    ]);
  });
});
