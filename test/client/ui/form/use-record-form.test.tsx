import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { anyFormDirty } from '../../../../src/client/ui/form/dirty-forms';
import { asNumber } from '../../../../src/client/ui/form/form-errors';
import { Field } from '../../../../src/client/ui/form/field';
import { FormProblems } from '../../../../src/client/ui/form/form-problems';
import type { Problem } from '../../../../src/client/ui/form/problem-banner';
import type { Refusal } from '../../../../src/client/ui/form/save-error';
import { useRecordForm } from '../../../../src/client/ui/form/use-record-form';

class Refused extends Error implements Refusal {
  constructor(
    message: string,
    readonly fields: { path: string; message: string }[],
  ) {
    super(message);
  }
}
const isRefused = (e: unknown): e is Refused => e instanceof Refused;

const schema = z.object({
  code: z.string().regex(/^\d{6}$/, 'Site code must be 6 digits'),
  traps: z.number().int().min(1),
});
type Values = { code?: string; traps?: number };
const LABELS = { traps: 'Number of traps' };

/** A record form on the kit, as the app's forms use it. */
function TrapForm({
  problem = null,
  save,
}: {
  problem?: Problem;
  save: (data: z.infer<typeof schema>) => Promise<void>;
}) {
  const { form, err, saveError, submitWith } = useRecordForm<Values, z.infer<typeof schema>>({
    id: 'trap-form',
    schema,
    labels: LABELS,
    defaultValues: { code: '' },
    problem,
    isRefusal: isRefused,
    mapPath: (p) => (p === 'site_code' ? 'code' : p),
  });
  return (
    <form aria-label="Traps" onSubmit={submitWith(save)} noValidate>
      <FormProblems problem={problem} saveError={saveError} />
      <Field label="Site code" error={err('code')}>
        <input {...form.register('code')} />
      </Field>
      <Field label="Number of traps" error={err('traps')}>
        <input inputMode="numeric" {...form.register('traps', { setValueAs: asNumber })} />
      </Field>
      <button type="submit">Save</button>
    </form>
  );
}

describe('useRecordForm', () => {
  it('says what is wrong in the technician’s words, field by field, and saves nothing', async () => {
    const saved: unknown[] = [];
    render(<TrapForm save={async (d) => void saved.push(d)} />);
    await userEvent.type(screen.getByLabelText('Site code'), '12');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Site code must be 6 digits');
    expect(screen.getByText('Number of traps is required')).toBeTruthy();
    expect(saved).toEqual([]);
  });

  it('registers unsaved typing while mounted, and forgets it when the form goes', async () => {
    const { unmount } = render(<TrapForm save={async () => undefined} />);
    expect(anyFormDirty()).toBe(false);
    await userEvent.type(screen.getByLabelText('Site code'), '1');
    await waitFor(() => expect(anyFormDirty()).toBe(true));
    unmount();
    expect(anyFormDirty()).toBe(false);
  });

  it('puts the server’s refusal at the top and its field messages beside the fields', async () => {
    render(
      <TrapForm
        problem={{
          code: 'validation_failed',
          message: 'Site code is already used',
          fields: [{ path: 'site_code', message: 'Already used by another site' }],
        }}
        save={async () => undefined}
      />,
    );
    expect(screen.getByText(/Site code is already used/)).toBeTruthy();
    await screen.findByText('Already used by another site');
  });

  it('keeps what was typed when saving fails, and says why', async () => {
    let refuse = true;
    const saved: unknown[] = [];
    render(
      <TrapForm
        save={async (d) => {
          if (refuse)
            throw new Refused('Check the highlighted fields', [
              { path: 'site_code', message: 'Site 123456 exists on this tablet' },
            ]);
          saved.push(d);
        }}
      />,
    );
    await userEvent.type(screen.getByLabelText('Site code'), '123456');
    await userEvent.type(screen.getByLabelText('Number of traps'), '2');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Check the highlighted fields');
    expect(screen.getByText('Site 123456 exists on this tablet')).toBeTruthy();
    expect((screen.getByLabelText('Site code') as HTMLInputElement).value).toBe('123456');
    expect((screen.getByLabelText('Number of traps') as HTMLInputElement).value).toBe('2');

    refuse = false;
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toEqual([{ code: '123456', traps: 2 }]));
    expect(screen.queryByText('Check the highlighted fields')).toBeNull();
  });

  it('says a storage failure saved nothing on the tablet', async () => {
    render(
      <TrapForm
        save={async () => {
          throw new Error('QuotaExceededError');
        }}
      />,
    );
    await userEvent.type(screen.getByLabelText('Site code'), '123456');
    await userEvent.type(screen.getByLabelText('Number of traps'), '1');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Could not save on this tablet: QuotaExceededError');
  });
});
