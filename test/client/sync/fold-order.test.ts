import { describe, expect, it, vi } from 'vitest';
import { updateRecord } from '../../../src/client/db/update-record';
import { createWithLostAnswer, storePulledCopy } from './helpers/lost-answer';

/**
 * absorb-copy-entries.test.ts's window (a collection's create applied, its answer lost, a pull
 * stores the server's copy beside the tablet's row), with concurrency 2 (the app uses 3).
 * The technician edits the same field on both rows: first the tablet's own row, then the copy
 * (saved last). The fold promises the record's entries go out in the order they were saved.
 */
describe("edits of both rows folded while the copy's edit is in flight", () => {
  it('the value saved last is the one the server keeps, or the tablet shows a conflict', async () => {
    const { db, bff, engine, siteLocal, made, server, letThrough } = await createWithLostAnswer(2);

    // Offline: an edit of the tablet's own row (an update entry: its create is frozen).
    const own = await db.collections.get(made.localId);
    await updateRecord(db, 'collection', made.localId, { ...own!.data, comments: 'Set at dusk' });
    // A pull stores the server's copy; the technician then edits the same field there, last.
    const copy = await storePulledCopy(db, server, siteLocal);
    await new Promise((r) => setTimeout(r, 5));
    const pulled = await db.collections.get(copy);
    await updateRecord(db, 'collection', copy, { ...pulled!.data, comments: 'Trap light was out' });

    // Network timing only: the copy's PUT is slow (it reaches the server after the other edit's
    // GET), and the other edit's PUT slower still.
    const signal = () => {
      let fire!: () => void;
      const p = new Promise<void>((r) => (fire = r));
      return { p, fire, wait: () => Promise.race([p, new Promise((r) => setTimeout(r, 1000))]) };
    };
    const secondGet = signal();
    const copyPutApplied = signal();
    let gets = 0;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : {};
      if (method === 'PUT' && body.comments === 'Trap light was out') {
        await secondGet.wait();
        const answer = await bff.fetch(input, init);
        copyPutApplied.fire();
        return answer;
      }
      if (method === 'PUT' && body.comments === 'Set at dusk') await copyPutApplied.wait();
      const answer = await bff.fetch(input, init);
      if (method === 'GET' && String(input).includes('/arthropod/collection/')) {
        gets += 1;
        if (gets === 2) secondGet.fire();
      }
      return answer;
    });

    letThrough();
    engine.start();
    engine.requestSync('manual');
    await engine.settled();
    engine.requestSync('manual');
    await engine.settled();

    const left = await db.outbox.toArray();
    const rows = await db.collections.toArray();
    const onServer = bff.get('collection', server.id)?.comments;
    const row = rows.find((r) => r.localId === made.localId);
    const outcome = {
      entriesLeft: left.map((e) => `${e.op} ${e.state}`),
      tablet: [row?.syncState, row?.data.comments],
      server: onServer,
    };
    // Either the value saved last reached the server, or the tablet asks the technician.
    const lastSavedOnServer = onServer === 'Trap light was out' && row?.data.comments === onServer;
    const conflictShown = row?.syncState === 'conflict';
    expect(lastSavedOnServer || conflictShown, JSON.stringify(outcome)).toBe(true);
  });
});
