import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CommentsField } from '../../../../src/client/ui/form/comments-field';
import { FormActions } from '../../../../src/client/ui/form/form-actions';
import { LookupSelect } from '../../../../src/client/ui/form/lookup-select';
import { NumberField } from '../../../../src/client/ui/form/number-field';
import { useRecordForm } from '../../../../src/client/ui/form/use-record-form';

const schema = z.object({ trap: z.number().int(), value: z.number().min(0) });
type Out = z.infer<typeof schema>;
const LABELS = { trap: 'Trap type', value: 'Value (Ct)' };
const TRAPS = [
  { id: 4, label: 'CO2 — CO2-baited light trap' },
  { id: 7, label: 'GRAVID — Gravid trap' },
];

function CtForm({ save }: { save: (d: Out) => Promise<void> }) {
  const { form, err, submitWith } = useRecordForm<Partial<Out>, Out>({
    id: 'ct-form',
    schema,
    labels: LABELS,
    defaultValues: {},
    problem: null,
    isRefusal: (_e): _e is never => false,
  });
  return (
    <form aria-label="Ct" onSubmit={submitWith(save)} noValidate>
      <LookupSelect
        register={form.register}
        name="trap"
        label="Trap type"
        error={err('trap')}
        options={TRAPS}
      />
      <NumberField
        register={form.register}
        name="value"
        label="Value (Ct)"
        error={err('value')}
        decimal
      />
      <button type="submit">Save</button>
    </form>
  );
}

describe('NumberField and LookupSelect', () => {
  it('offers the lookup entries by label, nothing chosen until the technician chooses', () => {
    render(<CtForm save={async () => undefined} />);
    const select = screen.getByLabelText('Trap type') as HTMLSelectElement;
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose…', 'CO2 — CO2-baited light trap', 'GRAVID — Gravid trap']);
    expect(select.value).toBe('');
    expect(screen.getByLabelText('Value (Ct)').getAttribute('inputmode')).toBe('decimal');
  });

  it('says "required" for an empty number and "must be a number" for text, saving nothing', async () => {
    const saved: Out[] = [];
    render(<CtForm save={async (d) => void saved.push(d)} />);
    await userEvent.selectOptions(screen.getByLabelText('Trap type'), 'GRAVID — Gravid trap');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Value (Ct) is required');
    await userEvent.type(screen.getByLabelText('Value (Ct)'), 'abc');
    await screen.findByText('Value (Ct) must be a number');
    expect(saved).toEqual([]);
  });

  it('hands the chosen entry’s id and the typed number to the record as numbers', async () => {
    const saved: Out[] = [];
    render(<CtForm save={async (d) => void saved.push(d)} />);
    await userEvent.selectOptions(screen.getByLabelText('Trap type'), 'GRAVID — Gravid trap');
    await userEvent.type(screen.getByLabelText('Value (Ct)'), '31.5');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toEqual([{ trap: 7, value: 31.5 }]));
  });
});

const notesSchema = z.object({ comments: z.string().optional() });
type Notes = z.infer<typeof notesSchema>;

function NotesForm({ save }: { save: (d: Notes) => Promise<void> }) {
  const { form, err, submitWith } = useRecordForm<Partial<Notes>, Notes>({
    id: 'notes-form',
    schema: notesSchema,
    labels: {},
    defaultValues: {},
    problem: null,
    isRefusal: (_e): _e is never => false,
  });
  return (
    <form aria-label="Notes" onSubmit={submitWith(save)} noValidate>
      <CommentsField register={form.register} error={err('comments')} />
      <FormActions
        submitLabel="Save notes"
        saving={form.formState.isSubmitting}
        onCancel={() => undefined}
      />
    </form>
  );
}

describe('CommentsField and FormActions', () => {
  it('saves blank comments as none, and saves once however often Save is tapped meanwhile', async () => {
    const saved: Notes[] = [];
    let finish = () => undefined as void;
    render(
      <NotesForm
        save={(d) => {
          saved.push(d);
          return new Promise<void>((resolve) => {
            finish = resolve;
          });
        }}
      />,
    );
    await userEvent.type(screen.getByLabelText('Comments'), '   ');
    const save = screen.getByRole('button', { name: 'Save notes' });
    await userEvent.click(save);
    await waitFor(() => expect((save as HTMLButtonElement).disabled).toBe(true));
    await userEvent.click(save);
    finish();
    await waitFor(() => expect((save as HTMLButtonElement).disabled).toBe(false));
    expect(saved).toHaveLength(1);
    expect(saved[0].comments).toBeUndefined();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
  });
});
