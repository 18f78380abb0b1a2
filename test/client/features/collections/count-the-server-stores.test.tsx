import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { SiteRow } from '../../../../src/client/db/database';
import {
  CollectionForm,
  type CollectionSubmit,
} from '../../../../src/client/features/collections/collection-form';
import { LOOKUPS } from '../../lookups-fixture';

const SITE: SiteRow = {
  localId: 's-1',
  serverId: 104233,
  syncState: 'synced',
  code: '104233',
  name: 'Putah Creek N',
  data: { code: '104233', name: 'Putah Creek N' },
  server: null,
  baseUpdated: null,
  parentLocalId: null,
  updatedAt: 0,
  problem: null,
};

/**
 * A count with zeros too many (a key held down in the field) was saved and queued, then refused by
 * the records service hours later (422 "Must be at most 2147483647": it stores an `int`). The form
 * now says so under the count, in the service's words, before anything is saved.
 */
describe('a count larger than the records service stores', () => {
  it('is refused under the count at save time, in the service’s words', async () => {
    const onSubmit = vi.fn<(v: CollectionSubmit) => Promise<void>>(async () => {});
    render(
      <CollectionForm
        lookups={LOOKUPS}
        sites={[SITE]}
        recent={[]}
        initialSiteLocalId="s-1"
        onSubmit={onSubmit}
      />,
    );
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Trap type'), String(LOOKUPS.trap[0].id));
    await user.click(screen.getByRole('button', { name: 'Add Cx tarsalis' }));
    await user.type(screen.getByLabelText('Count (row 1)'), '30000000000');
    await user.click(screen.getByRole('button', { name: 'Save collection' }));
    expect(await screen.findByText('Must be at most 2147483647')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
