import { afterEach, describe, expect, it } from 'vitest';
import type { TraplineDb } from '../../../src/client/db/database';
import { OUTBOX_PAGE, readWholeOutbox } from '../../../src/client/sync/outbox-reader';
import { outboxEntry } from './helpers/outbox-entry';
import { makeDb } from './helpers/outbox-factory';

const opened: TraplineDb[] = [];

afterEach(async () => {
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
});

describe('reading the whole outbox', () => {
  it('returns every entry of a queue longer than a page, oldest first, ties by id', async () => {
    const db = makeDb();
    opened.push(db);
    // Saved in bursts: many entries share a createdAt, as a multi-row save stamps them.
    const entries = Array.from({ length: OUTBOX_PAGE * 2 + 37 }, (_, i) =>
      outboxEntry({ entity: 'site', localId: `s${i}`, createdAt: 1_000 + Math.floor(i / 7) }),
    );
    await db.outbox.bulkAdd([...entries].reverse());

    const read = await readWholeOutbox(db);

    const expected = [...entries].sort(
      (a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
    expect(read.map((e) => e.id)).toEqual(expected.map((e) => e.id));
  });
});
