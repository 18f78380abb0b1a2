import type { DBCore, DBCoreMutateRequest } from 'dexie';
import { describe, expect, it } from 'vitest';
import { queueCreate, site } from './helpers/outbox-factory';
import { setupEngine } from './helpers/setup-engine';

/** Fails the first removal of an outbox entry, as a full disk or a lost transaction would. */
function failFirstOutboxDelete(db: ReturnType<typeof setupEngine>['db']) {
  let failed = false;
  db.use({
    stack: 'dbcore',
    name: 'fail-first-outbox-delete',
    create(down: DBCore): DBCore {
      return {
        ...down,
        table(name) {
          const table = down.table(name);
          if (name !== 'outbox') return table;
          return {
            ...table,
            mutate(req: DBCoreMutateRequest) {
              if (!failed && req.type === 'delete') {
                failed = true;
                return Promise.reject(new Error('QuotaExceededError: disk full'));
              }
              return table.mutate(req);
            },
          };
        },
      };
    },
  });
}

describe('settling', () => {
  it('retries an entry whose storing failed after its backoff, not after the minute-long idle poll', async () => {
    // Default idlePollMs (60 s); no jitter, so the retry is due at once.
    const { db, bff, engine } = setupEngine({ random: () => 0 });
    failFirstOutboxDelete(db);
    const s = await queueCreate(db, 'site', site(1));

    engine.requestSync('test');
    const outcome = await Promise.race([
      engine.settled().then(() => 'settled'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting after 3 s'), 3000)),
    ]);

    expect(outcome).toBe('settled');
    expect(await db.sites.get(s.localId)).toMatchObject({ syncState: 'synced' });
    expect(bff.postsFor(s.entryId)).toBe(1);
    expect(await db.outbox.count()).toBe(0);
  });
});
