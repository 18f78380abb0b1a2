import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SiteFormScreen } from '../../../src/client/features/sites/site-form-screen';
import { conflictingFields } from '../../../src/client/sync/detect-conflict';
import { storePulledRows } from '../../../src/client/sync/store-pulled-rows';
import { renderScreen, tabletDb, pulledSite } from './helpers/records';

/**
 * The office changes a field while the technician's form is open on it, and the technician
 * changes the same field. The technician typed over the value they saw, not over the office's:
 * sending it must show a conflict (their value or the office's, chosen by a person), never
 * overwrite the office's change in silence. A field changed on one side only is no conflict.
 */
const serverSite = (over: Record<string, unknown> = {}) =>
  pulledSite({
    id: 502,
    code: '104234',
    name: 'Putah Creek S',
    comments: 'Gate open',
    add_date: '2026-07-01T10:00:00.000Z',
    ...over,
  });

async function editWhileOfficeChanges(field: 'Comments' | 'Site name', typed: string) {
  const db = await tabletDb();
  await storePulledRows(db, Date.now(), 'site', [serverSite()]);
  const localId = (await db.sites.where('serverId').equals(502).first())!.localId;
  const user = renderScreen(db, <SiteFormScreen localId={localId} />, `/sites/${localId}/edit`);
  const input = await screen.findByLabelText(field);

  // While the form is open, a pull brings the office's new comment.
  const office = serverSite({ comments: 'Gate code 4411', updated: '2026-07-02T08:00:00.000Z' });
  await storePulledRows(db, Date.now(), 'site', [office]);
  await waitFor(async () =>
    expect((await db.sites.get(localId))!.data.comments).toBe('Gate code 4411'),
  );

  await user.clear(input);
  await user.type(input, typed);
  await user.click(screen.getByRole('button', { name: 'Save site' }));
  await waitFor(() => expect(location.pathname).toBe(`/sites/${localId}`));
  const [entry] = await db.outbox.where('localId').equals(localId).toArray();
  return { entry, office };
}

describe('a field changed by the office and by the technician while the form was open', () => {
  it('is a conflict when sent, not an overwrite of the office’s value', async () => {
    const { entry, office } = await editWhileOfficeChanges('Comments', 'Gate locked, key at depot');
    expect(entry).toMatchObject({
      op: 'update',
      payload: { comments: 'Gate locked, key at depot' },
    });
    // What the engine checks before it sends an update, against the server's record.
    expect(conflictingFields(entry, office)).toEqual(['comments']);
  });

  it('is no conflict when the technician changed another field', async () => {
    const { entry, office } = await editWhileOfficeChanges('Site name', 'Putah Creek South');
    expect(entry.payload).toEqual({ name: 'Putah Creek South' });
    expect(conflictingFields(entry, office)).toEqual([]);
  });
});
