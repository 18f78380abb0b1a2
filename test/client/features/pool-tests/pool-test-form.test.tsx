import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { PoolTestForm } from '../../../../src/client/features/pool-tests/pool-test-form';
import { LOOKUPS } from '../../lookups-fixture';

describe('pool test form', () => {
  it('defaults the testing agency to the user’s own and refuses a test before the collection', async () => {
    const onSubmit = vi.fn(async () => {});
    render(
      <PoolTestForm
        lookups={LOOKUPS}
        collectionDay="2026-07-14"
        ownAgencyId={1}
        onSubmit={onSubmit}
      />,
    );
    const user = userEvent.setup();
    expect(screen.getByLabelText('Testing agency')).toHaveValue('1');
    await user.selectOptions(screen.getByLabelText('Test method'), '1');
    await user.selectOptions(screen.getByLabelText('Target'), '1');
    await user.selectOptions(screen.getByLabelText('Result'), '1');
    await user.clear(screen.getByLabelText('Test date'));
    await user.type(screen.getByLabelText('Test date'), '2026-07-13');
    await user.click(screen.getByRole('button', { name: 'Save test result' }));
    expect(
      await screen.findByText(/The test date cannot be before the collection date/),
    ).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();

    await user.clear(screen.getByLabelText('Test date'));
    await user.type(screen.getByLabelText('Test date'), '2026-07-16');
    await user.type(screen.getByLabelText('Value (Ct)'), '31.5');
    await user.click(screen.getByRole('button', { name: 'Save test result' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]).toEqual([
      expect.objectContaining({
        method: 1,
        target: 1,
        status: 1,
        test_date: '2026-07-16',
        test_agency: 1,
        value: 31.5,
      }),
    ]);
  });

  it('names every missing field', async () => {
    render(
      <PoolTestForm lookups={LOOKUPS} collectionDay={null} ownAgencyId={null} onSubmit={vi.fn()} />,
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save test result' }));
    expect(await screen.findByText('Test method is required')).toBeInTheDocument();
    expect(screen.getByText('Target is required')).toBeInTheDocument();
    expect(screen.getByText('Result is required')).toBeInTheDocument();
    expect(screen.getByText('Testing agency is required')).toBeInTheDocument();
  });

  it('rejects a Ct value that is not a number', async () => {
    render(
      <PoolTestForm lookups={LOOKUPS} collectionDay={null} ownAgencyId={1} onSubmit={vi.fn()} />,
    );
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Value (Ct)'), 'abc');
    await user.click(screen.getByRole('button', { name: 'Save test result' }));
    expect(await screen.findByText('Value (Ct) must be a number')).toBeInTheDocument();
  });
});
