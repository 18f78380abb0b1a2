import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { SiteRow } from '../../../../src/client/db/database';
import {
  CollectionForm,
  type CollectionSubmit,
} from '../../../../src/client/features/collections/collection-form';
import { LOOKUPS } from '../../lookups-fixture';

function siteRow(
  localId: string,
  code: string,
  name: string,
  coordinates: [number, number] = [-121.49, 38.58],
): SiteRow {
  return {
    localId,
    serverId: Number(code) || 1,
    syncState: 'synced',
    code,
    name,
    data: { code, name, coordinate_precision: 1, shape: { type: 'Point', coordinates } },
    server: null,
    baseUpdated: null,
    parentLocalId: null,
    updatedAt: 0,
    problem: null,
  };
}
const SITES = [
  siteRow('zero', '000000', 'Zero Site'),
  siteRow('s-1', '104233', 'Putah Creek N'),
  siteRow('s-2', '104300', 'Willow Slough'),
];

function renderForm(props: Partial<Parameters<typeof CollectionForm>[0]> = {}) {
  const onSubmit = vi.fn<(v: CollectionSubmit) => Promise<void>>(async () => {});
  render(
    <CollectionForm
      lookups={LOOKUPS}
      sites={SITES}
      recent={[]}
      initialSiteLocalId="s-1"
      onSubmit={onSubmit}
      {...props}
    />,
  );
  return { onSubmit, user: userEvent.setup() };
}

describe('collection form', () => {
  it('asks for the trap type in words and keeps the counts typed so far', async () => {
    const { user, onSubmit } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Add Cx tarsalis' }));
    await user.type(screen.getByLabelText('Count (row 1)'), '37');
    await user.click(screen.getByRole('button', { name: 'Save collection' }));
    expect(await screen.findByText('Trap type is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Count (row 1)')).toHaveValue('37');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('offers the common Culex by default and jumps to an existing row instead of duplicating it', async () => {
    const { user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Add Cx pipiens' }));
    await user.click(screen.getByRole('button', { name: 'Add Cx pipiens' }));
    expect(screen.getAllByLabelText(/^Species \(row/)).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Add Cx quinquefasciatus' })).toBeInTheDocument();
    expect(screen.getByLabelText('Count (row 1)')).toHaveFocus();
  });

  it('offers the species most counted in this tablet’s collections', () => {
    renderForm({ recent: [{ data: { arthropods: [{ species: 4, sex: 1, num_count: 3 }] } }] });
    expect(screen.getByRole('button', { name: 'Add Ae aegypti' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add Cx tarsalis' })).not.toBeInTheDocument();
  });

  it('refuses two rows of the same species and sex', async () => {
    const { user, onSubmit } = renderForm();
    await user.selectOptions(screen.getByLabelText('Trap type'), '2');
    await user.click(screen.getByRole('button', { name: 'Add Cx tarsalis' }));
    await user.type(screen.getByLabelText('Count (row 1)'), '5');
    await user.click(screen.getByRole('button', { name: 'Add row' }));
    await user.selectOptions(screen.getByLabelText('Species (row 2)'), '1');
    await user.type(screen.getByLabelText('Count (row 2)'), '3');
    await user.click(screen.getByRole('button', { name: 'Save collection' }));
    expect(
      await screen.findByText(
        'Row 2 repeats the species and sex of row 1; add the counts into one row',
      ),
    ).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('refuses F-Mixed together with a specific female condition of the same species', async () => {
    const { user, onSubmit } = renderForm();
    await user.selectOptions(screen.getByLabelText('Trap type'), '2');
    await user.click(screen.getByRole('button', { name: 'Add row' }));
    await user.selectOptions(screen.getByLabelText('Species (row 1)'), '1');
    await user.selectOptions(screen.getByLabelText('Sex (row 1)'), '4');
    await user.type(screen.getByLabelText('Count (row 1)'), '10');
    await user.click(screen.getByRole('button', { name: 'Add row' }));
    await user.selectOptions(screen.getByLabelText('Species (row 2)'), '1');
    await user.selectOptions(screen.getByLabelText('Sex (row 2)'), '7');
    await user.type(screen.getByLabelText('Count (row 2)'), '4');
    await user.click(screen.getByRole('button', { name: 'Save collection' }));
    expect(
      await screen.findByText(/F-Gravid cannot be combined with F-Mixed for the same species/),
    ).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('shows the running total and saves the payload with the date and the device offset', async () => {
    const { user, onSubmit } = renderForm();
    await user.selectOptions(screen.getByLabelText('Trap type'), '2');
    await user.click(screen.getByRole('button', { name: 'Add Cx tarsalis' }));
    await user.type(screen.getByLabelText('Count (row 1)'), '120');
    await user.click(screen.getByRole('button', { name: 'Add row' }));
    await user.selectOptions(screen.getByLabelText('Species (row 2)'), '2');
    await user.selectOptions(screen.getByLabelText('Sex (row 2)'), '2');
    await user.type(screen.getByLabelText('Count (row 2)'), '7');
    expect(screen.getByTestId('abundance-total')).toHaveTextContent('127');
    await user.clear(screen.getByLabelText('Collection date'));
    await user.type(screen.getByLabelText('Collection date'), '2026-07-14T06:30');
    await user.click(screen.getByRole('button', { name: 'Save collection' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    const { siteLocalId, data } = onSubmit.mock.calls[0][0];
    expect(siteLocalId).toBe('s-1');
    expect(data).toMatchObject({
      trap: 2,
      num_trap: 1,
      trap_nights: 1,
      collection_date_date_only: false,
      arthropods: [
        { species: 1, sex: 1, num_count: 120 },
        { species: 2, sex: 2, num_count: 7 },
      ],
    });
    expect(data.collection_date).toMatch(/^2026-07-14T06:30:00[+-]\d{2}:\d{2}$/);
    expect(data).not.toHaveProperty('location');
  });

  it('asks for the trap location at the Zero Site', async () => {
    const { user, onSubmit } = renderForm({ initialSiteLocalId: '' });
    const choices = screen.getByRole('list', { name: 'Sites to choose from' });
    await user.click(within(choices).getByRole('button', { name: 'Zero Site (one-off location)' }));
    await user.selectOptions(screen.getByLabelText('Trap type'), '2');
    await user.click(screen.getByRole('button', { name: 'Save collection' }));
    expect(await screen.findByText('Latitude is required')).toBeInTheDocument();
    expect(screen.getByText('Longitude is required')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Latitude'), '38.6');
    await user.type(screen.getByLabelText('Longitude'), '-121.5');
    await user.selectOptions(screen.getByLabelText('Coordinate precision'), '1');
    await user.click(screen.getByRole('button', { name: 'Save collection' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0][0]).toMatchObject({
      siteLocalId: 'zero',
      data: {
        location: {
          shape: { type: 'Point', coordinates: [-121.5, 38.6] },
          coordinate_precision: 1,
        },
      },
    });
  });

  it('asks to choose a site when none is chosen', async () => {
    const { user } = renderForm({ initialSiteLocalId: '' });
    await user.click(screen.getByRole('button', { name: 'Save collection' }));
    expect(await screen.findByText('Choose a site')).toBeInTheDocument();
  });

  it('opens a refused record with the server message beside the field', () => {
    renderForm({
      initial: { collection_date: '2026-07-14', num_trap: 1, trap: 2, trap_nights: 1 },
      problem: {
        code: 'validation_failed',
        message: 'trap_nights: too many',
        fields: [
          { path: 'trap_nights', message: 'More trap nights than days since the last collection' },
        ],
      },
    });
    expect(
      screen.getByText('More trap nights than days since the last collection'),
    ).toBeInTheDocument();
    expect(screen.getByText(/The server did not accept this record/)).toBeInTheDocument();
  });

  it('puts a removed abundance row back on Undo', async () => {
    const { user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Add Cx tarsalis' }));
    await user.type(screen.getByLabelText('Count (row 1)'), '37');
    await user.click(screen.getByRole('button', { name: 'Remove row 1' }));
    expect(screen.queryByLabelText('Count (row 1)')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Row 1 removed (Cx tarsalis female 37)');
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(screen.getByLabelText('Count (row 1)')).toHaveValue('37');
    expect(screen.getByLabelText('Species (row 1)')).toHaveValue('1');
    expect(screen.getByTestId('abundance-total')).toHaveTextContent('37');
  });

  it('links a row’s error to its field for screen readers', async () => {
    const { user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Add row' }));
    await user.type(screen.getByLabelText('Count (row 1)'), '5');
    await user.click(screen.getByRole('button', { name: 'Save collection' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Species (row 1)')).toHaveAccessibleDescription(
        'Species is required',
      ),
    );
  });
});
