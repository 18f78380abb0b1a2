import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import {
  defaultChoice,
  type ReportChoice,
} from '../../../../src/client/features/reports/report-choice';
import {
  pickerErrors,
  ReportPickers,
  type PickerErrors,
} from '../../../../src/client/features/reports/report-pickers';

function Harness({
  errors = {},
  onChoice,
}: {
  errors?: PickerErrors;
  onChoice?: (c: ReportChoice) => void;
}) {
  const [choice, setChoice] = useState(defaultChoice(2026));
  return (
    <ReportPickers
      choice={choice}
      onChange={(c) => {
        setChoice(c);
        onChoice?.(c);
      }}
      seasons={[2026, 2025, 2024]}
      species={[
        { value: 'Cx pipiens', label: 'Cx pipiens' },
        { value: 'Cx tarsalis', label: 'Cx tarsalis' },
      ]}
      traps={[{ value: 'CO2', label: 'CO2 (CO2 trap)' }]}
      targets={{ WNV: 'West Nile virus' }}
      errors={errors}
    />
  );
}

describe('report pickers', () => {
  it('shows only the pickers the chosen report takes', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    // The anomaly compares one season with the years before it.
    expect(screen.getByLabelText('Season')).toHaveValue('2026');
    expect(screen.queryByLabelText('Target virus')).toBeNull();
    expect(screen.queryByLabelText('Estimator')).toBeNull();

    await user.click(screen.getByRole('radio', { name: 'Infection rate' }));
    const seasons = screen.getByRole('group', { name: 'Seasons' });
    expect(within(seasons).getByRole('checkbox', { name: '2026' })).toBeChecked();
    // The only season ticked stays ticked: a report always has a season.
    await user.click(within(seasons).getByRole('checkbox', { name: '2026' }));
    expect(within(seasons).getByRole('checkbox', { name: '2026' })).toBeChecked();
    expect(screen.getByLabelText('Target virus')).toHaveValue('WNV');
    expect(screen.getByRole('option', { name: 'WNV (West Nile virus)' })).toBeInTheDocument();
    expect(screen.getByLabelText('Estimator')).toHaveValue('bc-mle');
  });

  it('picks species and several seasons, and says "all" when none is ticked', async () => {
    const user = userEvent.setup();
    let last: ReportChoice | null = null;
    render(<Harness onChoice={(c) => (last = c)} />);
    await user.click(screen.getByRole('radio', { name: 'Abundance' }));
    await user.click(screen.getByRole('checkbox', { name: '2024' }));
    expect(last!.years).toEqual([2026, 2024]);
    expect(screen.getByText('All species')).toBeInTheDocument();
    await user.click(screen.getByText('Species', { selector: 'summary span' }));
    await user.click(screen.getByRole('checkbox', { name: 'Cx tarsalis' }));
    expect(last!.species).toEqual(['Cx tarsalis']);
    await user.click(screen.getByRole('button', { name: 'All species' }));
    expect(last!.species).toEqual([]);
  });

  it('puts the server’s 422 message next to the picker of that parameter', () => {
    const errors = pickerErrors([
      { path: 'target_year', message: 'Too big: expected number to be <=2200' },
      { path: 'scale', message: 'Unknown parameter' },
    ]);
    expect(errors).toEqual({
      years: 'Too big: expected number to be <=2200',
      report: 'scale: Unknown parameter',
    });
    render(<Harness errors={errors} />);
    const season = screen.getByLabelText('Season');
    expect(season).toHaveAttribute('aria-invalid', 'true');
    expect(season).toHaveAccessibleDescription('Too big: expected number to be <=2200');
    expect(screen.getByText('scale: Unknown parameter')).toBeInTheDocument();
  });
});
