import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createSite } from '../../../../src/client/db/create-site';
import { SiteFormScreen } from '../../../../src/client/features/sites/site-form-screen';
import { makeSite } from '../../db/factories';
import { renderScreen, tabletDb } from '../helpers/records';

describe('new site: a proposed site code', () => {
  it('prefills the next free code from the sites on the tablet and says it is a proposal', async () => {
    const db = await tabletDb();
    await createSite(db, makeSite({ code: '104233', name: 'Putah Creek N' }));
    await createSite(db, makeSite({ code: '100101', name: 'Discovery Park' }));
    renderScreen(db, <SiteFormScreen />, '/sites/new');

    const code = await screen.findByLabelText('Site code');
    expect(code).toHaveValue('104234');
    expect(code).toHaveAccessibleDescription(/^Proposed from the sites on this tablet/);
  });

  it('saves the code the technician typed over the proposal', async () => {
    const db = await tabletDb();
    await createSite(db, makeSite({ code: '104233', name: 'Putah Creek N' }));
    const user = renderScreen(db, <SiteFormScreen />, '/sites/new');

    const code = await screen.findByLabelText('Site code');
    await user.clear(code);
    await user.type(code, '731001');
    await user.type(screen.getByLabelText('Site name'), 'Typed Code Marsh');
    await user.type(screen.getByLabelText('Latitude'), '38.6');
    await user.type(screen.getByLabelText('Longitude'), '-121.5');
    await user.selectOptions(screen.getByLabelText('Coordinate precision'), '1');
    await user.click(screen.getByRole('button', { name: 'Save site' }));

    await waitFor(async () =>
      expect((await db.sites.toArray()).map((s) => s.code).sort()).toEqual(['104233', '731001']),
    );
  });

  it('leaves the code of a site being edited alone', async () => {
    const db = await tabletDb();
    await createSite(db, makeSite({ code: '104233', name: 'Putah Creek N' }));
    const localId = await createSite(db, makeSite({ code: '100101', name: 'Discovery Park' }));
    renderScreen(db, <SiteFormScreen localId={localId} />, `/sites/${localId}/edit`);

    const code = await screen.findByLabelText('Site code');
    expect(code).toHaveValue('100101');
    expect(code).toHaveAccessibleDescription('6 digits, unique in your agency');
  });

  it('opens without a proposal when the codes cannot be read, for the technician to type one', async () => {
    const db = await tabletDb();
    await createSite(db, makeSite({ code: '104233', name: 'Putah Creek N' }));
    // The tablet's storage failing the read of the code index (an IndexedDB backend error).
    const openCursor = IDBIndex.prototype.openCursor;
    vi.spyOn(IDBIndex.prototype, 'openCursor').mockImplementation(function (
      this: IDBIndex,
      ...args: Parameters<IDBIndex['openCursor']>
    ) {
      if (this.objectStore.name === 'sites' && this.name === 'code')
        throw new DOMException('Internal error reading the index', 'UnknownError');
      return openCursor.apply(this, args);
    });
    renderScreen(db, <SiteFormScreen />, '/sites/new');

    const code = await screen.findByLabelText('Site code');
    expect(code).toHaveValue('');
    expect(code).toHaveAccessibleDescription('6 digits, unique in your agency');
  });
});
