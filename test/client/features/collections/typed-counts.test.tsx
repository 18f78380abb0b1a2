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

/** A collection with a trap and one Cx tarsalis row whose count is typed as `count`. */
async function saveWithCount(count: string) {
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
  await user.type(screen.getByLabelText('Count (row 1)'), count);
  await user.click(screen.getByRole('button', { name: 'Save collection' }));
  return onSubmit;
}

describe('a count typed on the tablet', () => {
  it.each([
    ['0', 0],
    [' 12 ', 12],
    ['37', 37],
  ])('saves %j as %d', async (typed, saved) => {
    const onSubmit = await saveWithCount(typed);
    await vi.waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0][0].data.arthropods).toEqual([
      expect.objectContaining({ num_count: saved }),
    ]);
  });

  it('asks for a count typed as spaces only, instead of saving 0', async () => {
    const onSubmit = await saveWithCount('  ');
    expect(await screen.findByText('Count is required')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  // Number() reads these as 16, 1000, 3 and 31: a count the technician never typed.
  it.each(['0x10', '1e3', '0b11', '1,5', '3 1'])(
    'refuses %j as not a number instead of saving another count',
    async (typed) => {
      const onSubmit = await saveWithCount(typed);
      expect(await screen.findByText('Count must be a number')).toBeInTheDocument();
      expect(screen.getByLabelText('Count (row 1)')).toHaveValue(typed);
      expect(onSubmit).not.toHaveBeenCalled();
    },
  );
});
