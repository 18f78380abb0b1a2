import { describe, expect, it } from 'vitest';
import { updateRecord } from '../../../src/client/db/update-record';
import { storePulledRows } from '../../../src/client/sync/store-pulled-rows';
import { site, storeSynced } from './helpers/outbox-factory';
import { drain, setupEngine } from './helpers/setup-engine';

/**
 * Two tabs on one site. Tab A's edit form opened on the site; a pull brought the office's new
 * comment; tab B saved a change of the name; tab A's technician then typed over the comment they
 * saw. Tab A's edit was typed over the old comment, not the office's: it is based on what its
 * form opened with (no `updated`), and must come out as a conflict on the comment when sent,
 * even though tab B's edit is acknowledged first (the acknowledgement rebases later edits).
 */
describe('an edit typed over a value the office changed, behind another tab’s edit', () => {
  it('is a conflict on that field after the earlier edit is acknowledged', async () => {
    const setup = setupEngine();
    const server = setup.bff.seed('site', { ...site(1), comments: 'Gate open' });
    const localId = await storeSynced(setup.db, 'site', server, {
      ...site(1),
      comments: 'Gate open',
    });
    // Tab A's form opens.
    const openedA = { ...(await setup.db.sites.get(localId))!.data };

    // The office changes the comment; a pull stores it (the site has nothing waiting).
    const office = setup.bff.edit('site', server.id, { comments: 'Gate code 4411' });
    await storePulledRows(setup.db, Date.now(), 'site', [office]);

    // Tab B: opened now, changes the name only.
    const openedB = { ...(await setup.db.sites.get(localId))!.data };
    await updateRecord(
      setup.db,
      'site',
      localId,
      { ...openedB, name: 'Putah Creek South' },
      openedB,
    );
    // Tab A: types over the comment it showed.
    await updateRecord(setup.db, 'site', localId, { ...openedA, comments: 'Gate locked' }, openedA);

    await drain(setup.engine);
    expect(setup.bff.get('site', server.id)).toMatchObject({
      name: 'Putah Creek South',
      comments: 'Gate code 4411',
    });
    const left = await setup.db.outbox.where('localId').equals(localId).toArray();
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ state: 'conflict', payload: { comments: 'Gate locked' } });
  });
});
