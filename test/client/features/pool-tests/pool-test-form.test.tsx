import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { PoolTestForm } from '../../../../src/client/features/pool-tests/pool-test-form';
import { localDate } from '../../../../src/client/lib/dates';
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

  // Issue 35 (6): "Ct −5 and a test date 7 months ahead on a Confirmed WNV result, both synced".
  async function fillConfirmedWnv(user: ReturnType<typeof userEvent.setup>) {
    await user.selectOptions(screen.getByLabelText('Test method'), '1'); // RT-PCR
    await user.selectOptions(screen.getByLabelText('Target'), '1');
    await user.selectOptions(screen.getByLabelText('Result'), '1');
  }

  it('refuses a Ct outside 0–45, keeping what was typed', async () => {
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
    await fillConfirmedWnv(user);
    const ct = screen.getByLabelText('Value (Ct)');
    for (const [typed, message] of [
      ['-5', /A test value cannot be negative \(a Ct is between 0 and 45\)/],
      ['45.5', /A Ct is between 0 and 45; 45.5 cannot be one/],
    ] as const) {
      await user.clear(ct);
      await user.type(ct, typed);
      await user.click(screen.getByRole('button', { name: 'Save test result' }));
      expect(await screen.findByText(message)).toBeInTheDocument();
      expect(ct).toHaveValue(typed);
      expect(ct).toHaveAttribute('aria-invalid', 'true');
    }
    expect(screen.getByLabelText('Test method')).toHaveValue('1');
    expect(onSubmit).not.toHaveBeenCalled();

    await user.clear(ct);
    await user.type(ct, '45');
    await user.click(screen.getByRole('button', { name: 'Save test result' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]).toEqual([expect.objectContaining({ value: 45 })]);
  });

  it('refuses a test date after today on the tablet, keeping what was typed', async () => {
    const onSubmit = vi.fn(async () => {});
    render(
      <PoolTestForm lookups={LOOKUPS} collectionDay={null} ownAgencyId={1} onSubmit={onSubmit} />,
    );
    const user = userEvent.setup();
    await fillConfirmedWnv(user);
    const tomorrow = localDate(new Date(Date.now() + 24 * 60 * 60 * 1000));
    const date = screen.getByLabelText('Test date');
    await user.clear(date);
    await user.type(date, tomorrow);
    await user.type(screen.getByLabelText('Value (Ct)'), '50');
    await user.click(screen.getByRole('button', { name: 'Save test result' }));
    // Both problems at once, each under its field.
    expect(await screen.findByText(/The test date cannot be after today/)).toBeInTheDocument();
    expect(screen.getByText(/A Ct is between 0 and 45; 50 cannot be one/)).toBeInTheDocument();
    expect(date).toHaveValue(tomorrow);
    expect(onSubmit).not.toHaveBeenCalled();

    await user.clear(date);
    await user.type(date, localDate());
    await user.clear(screen.getByLabelText('Value (Ct)'));
    await user.type(screen.getByLabelText('Value (Ct)'), '28.4');
    await user.click(screen.getByRole('button', { name: 'Save test result' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]).toEqual([
      expect.objectContaining({ test_date: localDate(), value: 28.4 }),
    ]);
  });
});
