import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecords, TEST_PASSWORD, type TestRecords } from '../helpers/records-app';
import { appRequest } from './helpers/bff-stack';
import { cookieFrom } from './helpers/http';
import { makeCollection } from './helpers/record-bodies';
import { killSpawned, spawnMain, type SpawnedMain } from '../../helpers/spawned-main';
import { startTcpFaultProxy, type TcpFaultProxy } from './helpers/tcp-fault-proxy';
import { migratedDataDir } from '../../helpers/migrated-data-dir';

const COLLECTIONS = '/api/v1/arthropod/collection';
let records: TestRecords;
let proxy: TcpFaultProxy;
const dataDir = migratedDataDir('trapline-crash-');
const bffs: SpawnedMain[] = [];

beforeAll(async () => {
  // The records service's own idempotency is off: only the BFF's journal stands between a
  // retry and a duplicate.
  records = await buildTestRecords({ idempotency: false });
  await records.app.listen({ port: 0, host: '127.0.0.1' });
  proxy = await startTcpFaultProxy(
    `http://127.0.0.1:${(records.app.server.address() as AddressInfo).port}`,
  );
});
afterAll(async () => {
  for (const b of bffs) await killSpawned(b);
  await proxy?.close();
  await records?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A BFF process on the shared data directory, in front of the records service. */
function startBffProcess(): SpawnedMain {
  const p = spawnMain({
    UPSTREAM_URL: proxy.url,
    TRAPLINE_DATA_DIR: dataDir,
    // Lease = connect + response timeout + 5 s = 9.5 s: long enough to outlive a restart.
    TRAPLINE_UPSTREAM_CONNECT_TIMEOUT_MS: '500',
    TRAPLINE_UPSTREAM_TIMEOUT_MS: '4000',
  });
  bffs.push(p);
  return p;
}

async function collectionsOn(date: unknown): Promise<Array<{ id: number }>> {
  const { rows } = await records.db.query<{ id: number }>(
    'select id from collection where collection_date = $1::date::timestamptz',
    [date],
  );
  return rows;
}

describe('a BFF process killed between forwarding a create and recording its answer', () => {
  it('answers 409 while the dead process holds the key, then replays the one record the records service made', async () => {
    const first = startBffProcess();
    const firstUrl = await first.url();
    const signIn = await appRequest(firstUrl)('/api/session', {
      method: 'POST',
      body: { username: 'demo-tech', password: TEST_PASSWORD },
    });
    const cookie = cookieFrom(signIn) ?? '';
    expect(signIn.status).toBe(200);

    const body = makeCollection();
    const key = crypto.randomUUID();
    const create = (url: string) =>
      appRequest(url)(COLLECTIONS, {
        method: 'POST',
        cookie,
        headers: { 'idempotency-key': key },
        body,
      });
    const held = proxy.arm('POST', '/v1/arthropod/collection', 'hold');
    const orphan = create(firstUrl).catch((err: unknown) => err);
    await held;
    // The records service has answered (so committed); the BFF has not heard back. It dies now.
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    expect(await orphan).toBeInstanceOf(Error);
    expect(await collectionsOn(body.collection_date)).toHaveLength(1);

    const second = startBffProcess();
    const secondUrl = await second.url();
    const during = await create(secondUrl);
    // While the dead process's lease runs, the key is in flight; a slow machine may start the
    // second process only after the lease ended, and then the first answer is already the replay.
    if (during.status !== 201) {
      expect(during.status).toBe(409);
      expect(during.json()).toMatchObject({ error: { code: 'idempotency_in_flight' } });
      expect(during.headers['retry-after']).toBe('1');
    }

    let retry = during;
    const deadline = Date.now() + 15_000;
    while (retry.status === 409 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      retry = await create(secondUrl);
    }
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    const made = await collectionsOn(body.collection_date);
    expect(made).toHaveLength(1);
    expect(retry.json<{ id: number }>().id).toBe(made[0].id);
    expect((await create(secondUrl)).json()).toEqual(retry.json());
  }, 300_000);
});
