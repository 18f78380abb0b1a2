import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import type { TraplineDb } from '../../../src/client/db/database';
import { DbContext } from '../../../src/client/db/db-context';
import { CollectionFormScreen } from '../../../src/client/features/collections/collection-form-screen';
import { createWithLostAnswer, storePulledCopy } from '../sync/helpers/lost-answer';
import { drain } from '../sync/helpers/setup-engine';
import { LOOKUPS } from '../lookups-fixture';

/**
 * A collection's create reached the server but its answer was lost; a pull stored the server's
 * copy beside it, and the technician typed into the copy's edit form (the app then closed: the
 * typing is a draft). When the create is acknowledged, the copy is folded into the record the
 * create made (absorbDuplicate): the copy's localId is gone, the record lives on under the
 * other. The typing must come back when the record's form opens, not be dropped with the copy.
 */
const SLOW = { timeout: 20_000 };
const RESTORED = /Restored what you typed on .+ before the app closed\./;

function mount(db: TraplineDb, ui: ReactElement, at: string) {
  history.replaceState(null, '', at);
  return render(<DbContext.Provider value={db}>{ui}</DbContext.Provider>).unmount;
}

describe('an edit draft of a pulled copy folded into its own record', SLOW, () => {
  it('comes back in the form of the record the copy was folded into', async () => {
    const { db, engine, siteLocal, made, server, letThrough } = await createWithLostAnswer(1);
    await db.lookups.put({ key: 'lookups', etag: null, document: LOOKUPS, storedAt: Date.now() });
    const copy = await storePulledCopy(db, server, siteLocal);

    const user = userEvent.setup();
    const unmount = mount(db, <CollectionFormScreen localId={copy} />, `/collections/${copy}/edit`);
    await user.type(await screen.findByLabelText('Comments'), 'Standing water by the gate');
    await waitFor(
      async () => expect(await db.meta.where('key').startsWith('draft:').count()).toBe(1),
      { timeout: 3000 },
    );
    unmount();

    // Back online: the create is acknowledged and the copy folded into `made`.
    letThrough();
    engine.start();
    await drain(engine);
    expect((await db.collections.toArray()).map((c) => c.localId)).toEqual([made.localId]);

    // The one collection the tablet now shows; its form brings the typing back.
    mount(db, <CollectionFormScreen localId={made.localId} />, `/collections/${made.localId}/edit`);
    expect(await screen.findByText(RESTORED)).toBeVisible();
    expect(screen.getByLabelText('Comments')).toHaveValue('Standing water by the gate');
  });
});
