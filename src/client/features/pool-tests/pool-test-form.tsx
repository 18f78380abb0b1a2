import { useMemo } from 'react';
import {
  ctOutOfRange,
  poolTestCreate,
  poolTestValueMessages,
  reportsCt,
  testBeforeCollection,
  testDateMessages,
  testDateTooLate,
  writtenDay,
  type LookupsDocument,
} from '#shared';
import type { PoolTestData } from '../../db/create-pool-test';
import { isRepositoryError } from '../../db/repository-error';
import { defineMessages, type IntlShape } from 'react-intl';
import { localDate } from '../../lib/dates';
import { dateIn, useI18n } from '../../lib/i18n';
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

const WORDS = defineMessages({
  method: { id: 'poolTestForm.method', defaultMessage: 'Test method' },
  target: { id: 'poolTestForm.target', defaultMessage: 'Target' },
  status: { id: 'poolTestForm.status', defaultMessage: 'Result' },
  testDate: { id: 'poolTestForm.testDate', defaultMessage: 'Test date' },
  testAgency: { id: 'poolTestForm.testAgency', defaultMessage: 'Testing agency' },
  value: { id: 'poolTestForm.value', defaultMessage: 'Value (Ct)' },
  comments: { id: 'form.comments', defaultMessage: 'Comments' },
});
const LABELS = {
  method: WORDS.method,
  target: WORDS.target,
  status: WORDS.status,
  test_date: WORDS.testDate,
  test_agency: WORDS.testAgency,
  value: WORDS.value,
  comments: WORDS.comments,
};

type Values = Partial<PoolTestData>;

/**
 * The shared pool test schema (pool resolved later) plus the rules checked offline: no test
 * before the collection, none after today (the tablet's local day, read when the form is checked
 * so a form left open overnight moves with the calendar), and a PCR method's Ct within 0–45.
 * `ctMethods`: ids of the methods whose value is a Ct.
 */
export function poolTestFormSchema(
  intl: IntlShape,
  collectionDay: string | null,
  ctMethods: ReadonlySet<number>,
) {
  return (
    poolTestCreate
      .omit({ pool: true })
      .extend({
        test_date: poolTestCreate.shape.test_date
          .refine((d) => !collectionDay || !testBeforeCollection(d.slice(0, 10), collectionDay), {
            message: testDateMessages.formTestDate(
              collectionDay ? dateIn(intl, collectionDay, true) : '',
            ),
          })
          .superRefine((d, ctx) => {
            const today = localDate();
            if (testDateTooLate(writtenDay(d), today)) {
              ctx.addIssue({
                code: 'custom',
                message: poolTestValueMessages.formTestDate(dateIn(intl, today, true)),
              });
            }
          }),
      })
      // A negative value is the shared schema's to name (any method); here a Ct above the range.
      .refine(
        (v) =>
          !(
            ctMethods.has(v.method) &&
            typeof v.value === 'number' &&
            v.value > 0 &&
            ctOutOfRange(v.value)
          ),
        {
          path: ['value'],
          error: (issue) => poolTestValueMessages.ct((issue.input as { value: number }).value),
          // Checked beside the other fields' problems, so every one shows at once.
          when: ({ value }) => {
            const v = value as { method?: unknown; value?: unknown } | null;
            return typeof v?.method === 'number' && typeof v.value === 'number';
          },
        },
      )
  );
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
  const ctMethods = useMemo(
    () => new Set(lookups.test_method.filter(reportsCt).map((m) => m.id)),
    [lookups.test_method],
  );
  const intl = useI18n();
  const t = intl.formatMessage;
  const schema = useMemo(
    () => poolTestFormSchema(intl, collectionDay, ctMethods),
    [intl, collectionDay, ctMethods],
  );
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
      aria-label={t({ id: 'poolTestForm.name', defaultMessage: 'Pool test' })}
    >
      <FormProblems problem={problem} saveError={saveError} draft={draft} />
      <div className="form-grid">
        <LookupSelect
          register={register}
          name="method"
          label={t(WORDS.method)}
          error={err('method')}
          options={lookups.test_method.map((m) => ({
            id: m.id,
            label: m.acronym && m.acronym !== m.name ? `${m.acronym} — ${m.name}` : m.name,
          }))}
        />
        <LookupSelect
          register={register}
          name="target"
          label={t(WORDS.target)}
          error={err('target')}
          options={lookups.test_target.map((target) => ({
            id: target.id,
            label: `${target.acronym} — ${target.name}`,
          }))}
        />
        <LookupSelect
          register={register}
          name="status"
          label={t(WORDS.status)}
          error={err('status')}
          options={lookups.test_status.map((s) => ({ id: s.id, label: s.name }))}
        />
        <Field label={t(WORDS.testDate)} error={err('test_date')}>
          {/* `max` keeps a date picker on today or before; the schema says why if typed. */}
          <input type="date" max={localDate()} {...register('test_date')} />
        </Field>
        <LookupSelect
          register={register}
          name="test_agency"
          label={t(WORDS.testAgency)}
          error={err('test_agency')}
          options={lookups.agency.map((a) => ({ id: a.id, label: a.name }))}
        />
        <NumberField
          register={register}
          name="value"
          label={t(WORDS.value)}
          error={err('value')}
          decimal
        />
      </div>
      <CommentsField register={register} error={err('comments')} />
      <FormActions
        submitLabel={t({ id: 'poolTestForm.save', defaultMessage: 'Save test result' })}
        saving={formState.isSubmitting}
        onCancel={cancelWith(onCancel)}
      />
    </form>
  );
}
