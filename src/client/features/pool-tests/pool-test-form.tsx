import { useMemo } from 'react';
import {
  poolTestCreate,
  testBeforeCollection,
  testDateMessages,
  type LookupsDocument,
} from '../../../shared';
import type { PoolTestData } from '../../db/create-pool-test';
import { isRepositoryError } from '../../db/repository-error';
import { formatDate, localDate } from '../../lib/dates';
import { Field } from '../../ui/form/field';
import { CommentsField } from '../../ui/form/comments-field';
import { enterMovesOn } from '../../ui/form/enter-moves-on';
import { FormActions } from '../../ui/form/form-actions';
import { FormProblems } from '../../ui/form/form-problems';
import { LookupSelect } from '../../ui/form/lookup-select';
import { NumberField } from '../../ui/form/number-field';
import type { Problem } from '../../ui/form/problem-banner';
import type { DraftPlace } from '../../ui/form/use-form-draft';
import { useRecordForm } from '../../ui/form/use-record-form';

const LABELS: Record<string, string> = {
  method: 'Test method',
  target: 'Target',
  status: 'Result',
  test_date: 'Test date',
  test_agency: 'Testing agency',
  value: 'Value (Ct)',
  comments: 'Comments',
};

type Values = Partial<PoolTestData>;

/** The shared pool test schema (pool resolved later) plus the date rule checked offline. */
export function poolTestFormSchema(collectionDay: string | null) {
  return poolTestCreate.omit({ pool: true }).extend({
    test_date: poolTestCreate.shape.test_date.refine(
      (d) => !collectionDay || !testBeforeCollection(d.slice(0, 10), collectionDay),
      {
        message: testDateMessages.formTestDate(
          collectionDay ? formatDate(collectionDay, true) : '',
        ),
      },
    ),
  });
}

type Props = {
  lookups: LookupsDocument;
  /** `YYYY-MM-DD` of the pool's collection: no test before it. */
  collectionDay: string | null;
  ownAgencyId: number | null;
  /** The stored test when editing (a server date-time shows as its day). */
  initial?: Partial<PoolTestData>;
  problem?: Problem;
  onSubmit: (data: PoolTestData) => Promise<void>;
  onCancel?: () => void;
  /** Where the typing is kept as a draft until saved (the screen knows the record). */
  draft?: DraftPlace;
};

/** A pool's test result: method, target, status, date, testing agency and Ct value. */
export function PoolTestForm({
  lookups,
  collectionDay,
  ownAgencyId,
  initial,
  problem = null,
  onSubmit,
  onCancel,
  draft: draftPlace,
}: Props) {
  const schema = useMemo(() => poolTestFormSchema(collectionDay), [collectionDay]);
  const { form, err, saveError, submitWith, cancelWith, draft } = useRecordForm<
    Values,
    PoolTestData
  >({
    id: 'pool-test-form',
    schema,
    labels: LABELS,
    defaultValues: initial
      ? { ...initial, test_date: initial.test_date?.slice(0, 10) }
      : { test_date: localDate(), test_agency: ownAgencyId ?? undefined },
    problem,
    isRefusal: isRepositoryError,
    mode: 'onSubmit',
    draft: draftPlace,
  });
  const { register, formState } = form;
  const submit = submitWith(onSubmit);
  return (
    <form
      className="form record-form"
      onSubmit={submit}
      onKeyDown={enterMovesOn}
      noValidate
      aria-label="Pool test"
    >
      <FormProblems problem={problem} saveError={saveError} draft={draft} />
      <div className="form-grid">
        <LookupSelect
          register={register}
          name="method"
          label="Test method"
          error={err('method')}
          options={lookups.test_method.map((m) => ({
            id: m.id,
            label: m.acronym && m.acronym !== m.name ? `${m.acronym} — ${m.name}` : m.name,
          }))}
        />
        <LookupSelect
          register={register}
          name="target"
          label="Target"
          error={err('target')}
          options={lookups.test_target.map((t) => ({
            id: t.id,
            label: `${t.acronym} — ${t.name}`,
          }))}
        />
        <LookupSelect
          register={register}
          name="status"
          label="Result"
          error={err('status')}
          options={lookups.test_status.map((s) => ({ id: s.id, label: s.name }))}
        />
        <Field label="Test date" error={err('test_date')}>
          <input type="date" {...register('test_date')} />
        </Field>
        <LookupSelect
          register={register}
          name="test_agency"
          label="Testing agency"
          error={err('test_agency')}
          options={lookups.agency.map((a) => ({ id: a.id, label: a.name }))}
        />
        <NumberField
          register={register}
          name="value"
          label="Value (Ct)"
          error={err('value')}
          decimal
        />
      </div>
      <CommentsField register={register} error={err('comments')} />
      <FormActions
        submitLabel="Save test result"
        saving={formState.isSubmitting}
        onCancel={cancelWith(onCancel)}
      />
    </form>
  );
}
